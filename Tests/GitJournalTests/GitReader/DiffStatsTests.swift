import Foundation
import Testing

@testable import Facts
@testable import GitReader

/// The journal's numbers are git's: every commit's files, insertions and deletions equal
/// `git log --shortstat -M100%`.
@Suite struct DiffStatsTests {
  @Test func everyKindOfChangeCountsLikeGitLog() async throws {
    let sandbox = try JournalSandbox()
    let repository = try sandbox.makeRepository("app")
    try sandbox.register(repository)
    var minute = 0
    func commit(_ message: String, _ change: () throws -> Void) throws {
      try change()
      minute += 1
      try repository.commit(message: message, date: "2026-03-10T08:\(String(format: "%02d", minute)):00Z")
    }
    let binary: [UInt8] = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ ($0 >> 3)) } + [0, 0, 1]
    let lines = (1...40).map { "line \($0)" }.joined(separator: "\n") + "\n"

    try commit("Root commit") {
      try repository.write(lines, to: "a.txt")
      try repository.write("one\ntwo\nthree\n", to: "b.txt")
      try repository.write("no newline at the end", to: "c.txt")
      try repository.write("", to: "empty.txt")
      try repository.write(bytes: binary, to: "image.bin")
      try repository.write("#!/bin/sh\necho hi\n", to: "script.sh")
      try repository.write("same\ncontent\n", to: "twin1.txt")
      try repository.write("same\ncontent\n", to: "twin2.txt")
      try repository.write("deep\n", to: "src/deep/file.txt")
      try repository.write("script.sh", to: "pointer.txt")
    }
    try commit("Exact rename") { try repository.git("mv", "a.txt", "renamed.txt") }
    try commit("Rename and edit") {
      try repository.git("mv", "b.txt", "b2.txt")
      try repository.write("one\n2\nthree\nfour\n", to: "b2.txt")
    }
    try commit("Binary change") { try repository.write(bytes: binary.reversed(), to: "image.bin") }
    try commit("Binary rename") { try repository.git("mv", "image.bin", "picture.bin") }
    try commit("Deletion") { try repository.git("rm", "-q", "c.txt") }
    try commit("Mode change") { try repository.git("update-index", "--chmod=+x", "script.sh") }
    try commit("Mode change and edit") {
      try repository.write("#!/bin/sh\necho hello\n", to: "script.sh")
      try repository.git("add", "script.sh")
      try repository.git("update-index", "--chmod=-x", "script.sh")
    }
    try commit("Empty file renamed") { try repository.git("mv", "empty.txt", "still-empty.txt") }
    try commit("Identical files renamed") {
      try repository.git("mv", "twin1.txt", "twin-a.txt")
      try repository.git("mv", "twin2.txt", "twin-b.txt")
    }
    try commit("Copy without removing") { try repository.write("same\ncontent\n", to: "twin-c.txt") }
    try commit("Move between folders") {
      try FileManager.default.createDirectory(atPath: repository.path + "/lib", withIntermediateDirectories: true)
      try repository.git("mv", "src/deep/file.txt", "lib/file.txt")
    }
    try commit("Symlink") {
      try FileManager.default.createSymbolicLink(atPath: repository.path + "/link", withDestinationPath: "renamed.txt")
    }
    // A link holds its target as a blob: the same blob as the file's, but git renames only within a kind.
    try commit("File replaced by a link with its content") {
      try repository.git("rm", "-q", "pointer.txt")
      try FileManager.default.createSymbolicLink(atPath: repository.path + "/pointer", withDestinationPath: "script.sh")
    }
    try commit("Line endings") {
      try repository.write(lines.replacingOccurrences(of: "\n", with: "\r\n"), to: "renamed.txt")
    }
    try commit("Big edit") {
      try repository.write((1...300).map { "row \($0 % 17)" }.joined(separator: "\n") + "\n", to: "big.txt")
      try repository.write("one\n", to: "b2.txt")
    }
    try commit("Binary becomes text") { try repository.write("now text\n", to: "picture.bin") }
    try commit("Nothing at all") {}
    try commit("Swap two files") {
      try repository.git("mv", "twin-a.txt", "tmp.txt")
      try repository.git("mv", "b2.txt", "twin-a.txt")
      try repository.git("mv", "tmp.txt", "b2.txt")
    }
    let oneLine = (0..<4000).map { "{\"n\":\($0)}" }.joined(separator: ",")
    try commit("One-line file") { try repository.write(oneLine, to: "api.json") }
    try commit("One-line file edited") {
      try repository.write(oneLine.replacingOccurrences(of: "\"n\":2000}", with: "\"n\":-1}"), to: "api.json")
    }
    try commit("One line gains its newline") { try repository.write(oneLine + "\n", to: "api.json") }
    try commit("One line loses its newline") { try repository.write(oneLine, to: "api.json") }
    try commit("One line split in two") {
      try repository.write(oneLine.replacingOccurrences(of: ",{\"n\":2000}", with: "\n{\"n\":2000}"), to: "api.json")
    }
    try commit("Empty file gets lines") { try repository.write("a\nb\nc", to: "still-empty.txt") }
    try commit("File emptied") { try repository.write("", to: "twin-c.txt") }

    let logged = try repository.log()
    #expect(logged.count == minute)
    let report = try await sandbox.report("2026-03-10")
    #expect(report.commitCount == logged.count)
    let journal = Dictionary(uniqueKeysWithValues: report.allCommits.map { ($0.id.hex, $0) })
    for commit in logged {
      let counted = try #require(journal[commit.id], "\(commit.subject) is missing")
      let stats = DiffStats(
        filesChanged: counted.filesChanged, insertions: counted.insertions, deletions: counted.deletions)
      #expect(stats == commit.stats, "\(commit.subject)")
    }
    // The totals are sums of git's numbers as well.
    #expect(report.insertions == logged.map(\.stats.insertions).reduce(0, +))
    #expect(report.deletions == logged.map(\.stats.deletions).reduce(0, +))
    #expect(report.filesChanged == logged.map(\.stats.filesChanged).reduce(0, +))
  }

  /// Many commits on three branches with merges, spread over a month and several time zones: each day's totals
  /// in the files `rebuild` writes equal `git log` grouped by author day.
  @Test func randomHistoryDayTotalsMatchGitLog() async throws {
    let sandbox = try JournalSandbox(timeZone: "America/New_York")
    let repository = try sandbox.makeRepository("app")
    try sandbox.register(repository)
    var random = SeededGenerator(seed: 0x6A6F_7572_6E61_6C)
    let branches = ["main", "feature", "topic"]
    let zones = ["+0000", "-0500", "+0100", "+0530", "-0800", "+0900"]
    let emails = [TemporaryRepository.email, TemporaryRepository.email, TemporaryRepository.email, "bob@example.com"]
    // Each branch edits only its own folder, so a merge takes the other branch's folder as it is.
    var trees: [String: [String: [String]]] = [:]
    var tips: [String: Int] = [:]
    var script = FastImportScript()
    var time: Int64 = 1_772_323_200  // 2026-03-01 00:00 UTC
    let root = script.commit(
      branch: "main", email: TemporaryRepository.email, authorTime: time, committerTime: time, zone: "+0000",
      message: "Start", changes: [.write(path: "README", content: "start\n")])
    for branch in branches {
      if branch != "main" { script.reset(branch: branch, to: root) }
      trees[branch] = ["README": ["start"]]
      tips[branch] = root
    }

    for index in 0..<240 {
      time += Int64.random(in: 600...18_000, using: &random)
      let branch = branches[Int.random(in: 0..<branches.count, using: &random)]
      let zone = zones[Int.random(in: 0..<zones.count, using: &random)]
      // Some commits were rebased: written earlier than committed.
      let rebased = Int.random(in: 0..<5, using: &random) == 0
      let authored = rebased ? time - Int64.random(in: 0...90_000, using: &random) : time
      var tree = trees[branch]!
      var changes: [FastImportScript.Change] = []
      var merging: Int?
      if index % 12 == 11 {
        let other = branches.filter { $0 != branch }[Int.random(in: 0..<2, using: &random)]
        merging = tips[other]
        for (path, lines) in trees[other]! where path.hasPrefix(other + "/") && tree[path] != lines {
          tree[path] = lines
          changes.append(.write(path: path, content: lines.map { $0 + "\n" }.joined()))
        }
        for path in tree.keys where path.hasPrefix(other + "/") && trees[other]![path] == nil {
          tree[path] = nil
          changes.append(.delete(path: path))
        }
      } else {
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          let file = "\(branch)/file\(Int.random(in: 0..<6, using: &random)).txt"
          var lines = tree[file] ?? []
          for _ in 0..<Int.random(in: 1...8, using: &random) {
            let position = Int.random(in: 0...lines.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0 where !lines.isEmpty: lines.remove(at: min(position, lines.count - 1))
            case 1 where !lines.isEmpty: lines[min(position, lines.count - 1)] = "changed \(index)"
            default: lines.insert("line \(index).\(position)", at: position)
            }
          }
          tree[file] = lines
          changes.append(.write(path: file, content: lines.map { $0 + "\n" }.joined()))
        }
        // Now and then an exact rename, or a file deleted.
        let victim = "\(branch)/file\(Int.random(in: 0..<6, using: &random)).txt"
        if Int.random(in: 0..<10, using: &random) == 0, let lines = tree[victim],
          !changes.contains(where: {
            if case .write(let path, _) = $0 { return path == victim }
            return false
          })
        {
          tree[victim] = nil
          changes.append(.delete(path: victim))
          if Bool.random(using: &random) {
            tree["\(branch)/moved\(index).txt"] = lines
            changes.append(.write(path: "\(branch)/moved\(index).txt", content: lines.map { $0 + "\n" }.joined()))
          }
        }
      }
      let email = merging == nil ? emails[Int.random(in: 0..<emails.count, using: &random)] : TemporaryRepository.email
      tips[branch] = script.commit(
        branch: branch, email: email, authorTime: authored, committerTime: time, zone: zone,
        message: merging == nil ? "Change \(index) on \(branch)" : "Merge into \(branch) #\(index)",
        merging: merging, changes: changes)
      trees[branch] = tree
    }
    try repository.importHistory(script)
    #expect(try repository.log(["--branches", "--merges"]).count == 20)

    let logged = try repository.log(
      ["--branches", "--no-merges", "--author=\(TemporaryRepository.email)"], timeZone: "America/New_York")
    #expect(logged.count > 150)
    let byDay = Dictionary(grouping: logged, by: \.authorDay)
    #expect(byDay.count >= 25)
    let first = try #require(byDay.keys.min())
    let last = try #require(byDay.keys.max())
    let result = await sandbox.run("rebuild", "--since", first, "--until", last)
    #expect(result.status == 0, "\(result)")

    var day = try #require(Day(iso: first))
    let end = try #require(Day(iso: last))
    while day <= end {
      let commits = byDay[day.description] ?? []
      let file = sandbox.journalFile(day.description)
      if commits.isEmpty {
        #expect(file == nil, "\(day) has no commits but a file")
      } else {
        let frontMatter = try #require(file.map(Self.frontMatter), "\(day) has no file")
        #expect(frontMatter["commits"] == String(commits.count), "\(day)")
        #expect(frontMatter["insertions"] == String(commits.map(\.stats.insertions).reduce(0, +)), "\(day)")
        #expect(frontMatter["deletions"] == String(commits.map(\.stats.deletions).reduce(0, +)), "\(day)")
      }
      day = day.adding(days: 1)
    }
  }

  /// A rebuild diffs a long span while it walks it (`DiffPipeline`): a blob that cannot be read there fails that
  /// repository alone, with one warning, and the rebuild ends; the other repository's days are written.
  @Test(.timeLimit(.minutes(1))) func aDamagedBlobInALongRebuildSkipsOnlyItsRepository() async throws {
    let sandbox = try JournalSandbox()
    let healthy = try sandbox.makeRepository("healthy")
    let broken = try sandbox.makeRepository("broken")
    try sandbox.register(healthy)
    try sandbox.register(broken)
    for day in 1...20 {
      let date = String(format: "2026-03-%02dT10:00:00Z", day)
      try healthy.commit(file: "notes.txt", content: "healthy \(day)\n", message: "Healthy \(day)", date: date)
      try broken.commit(
        file: "data.txt", content: (1...day).map { "line \($0)\n" }.joined(), message: "Broken \(day)", date: date)
    }
    let blob = try broken.git("rev-parse", "HEAD~10:data.txt").trimmingCharacters(in: .whitespacesAndNewlines)
    let object = broken.path + "/.git/objects/\(blob.prefix(2))/\(blob.dropFirst(2))"
    chmod(object, 0o644)
    try Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }).write(to: URL(fileURLWithPath: object))

    let result = await sandbox.run("rebuild", "--since", "2026-03-01", "--until", "2026-03-20", "--no-narrative")
    #expect(result.status == 2, "\(result)")
    let warnings = result.standardError.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
    #expect(warnings.count == 1 && warnings.first?.contains("broken") == true, "\(result.standardError)")
    let file = try #require(sandbox.journalFile("2026-03-15"), "the healthy repository's day is missing")
    #expect(file.contains("Healthy 15"))
  }

  static func frontMatter(_ text: String) -> [String: String] {
    var values: [String: String] = [:]
    for line in text.split(separator: "\n").dropFirst().prefix(while: { $0 != "---" }) {
      guard let colon = line.firstIndex(of: ":") else { continue }
      values[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return values
  }
}
