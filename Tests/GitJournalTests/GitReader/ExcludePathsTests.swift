import Foundation
import Testing

@testable import Facts
@testable import GitReader

/// `journal.excludePaths` counts as git's pathspec exclusion does: on a generated history with renames (also into and
/// out of excluded places), binaries and nested folders, each commit's numbers equal
/// `git log --shortstat -M100% -- . ':(exclude)<pattern>'...`, and a commit git leaves out (it only touched excluded
/// files) is still a commit, with nothing counted.
@Suite struct ExcludePathsTests {
  static let paths = [
    "README.md", "package-lock.json", "web/package-lock.json", "yarn.lock", "web/app/yarn.lock", "dist/app.js",
    "dist/css/site.css", "src/dist/keep.js", "src/a/b/c.txt", "x.lock/notes.txt", "assets/logo.bin", "docs/guide.md",
    "docs/deep/er/page.md", "Cargo.lock",
  ]

  static let patternSets: [[String]] = [
    ["*.lock"], ["package-lock.json", "dist/**"], ["dist", "*/package-lock.json"], ["x.*", "docs/"],
    ["**/package-lock.json", "assets/*.bin", "src/[ab]/*"],
  ]

  /// A seeded history of about 80 commits on one day, made with git.
  static func makeHistory(_ repository: TemporaryRepository) throws -> Int {
    var random = SeededGenerator(seed: 0x6578_636C_7564_65)
    var present: [String: [String]] = [:]
    var count = 0
    func text(_ lines: Int) -> [String] { (0..<lines).map { _ in "line \(Int.random(in: 0..<40, using: &random))" } }
    func write(_ path: String, _ lines: [String]) throws {
      if path.hasSuffix(".bin") {
        let bytes: [UInt8] = (0..<600).map { _ in UInt8.random(in: 0...255, using: &random) } + [0]
        try repository.write(bytes: bytes, to: path)
      } else {
        try repository.write(lines.joined(separator: "\n") + "\n", to: path)
      }
      present[path] = lines
    }
    func makeFolder(for path: String) throws {
      let folder = (repository.path + "/" + path as NSString).deletingLastPathComponent
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    for path in paths.prefix(6) { try write(path, text(5)) }
    try repository.commit(message: "Start", date: "2026-03-10T06:00:00Z")
    count += 1
    for index in 1..<80 {
      let operations = Int.random(in: 1...3, using: &random)
      for _ in 0..<operations {
        let path = paths[Int.random(in: 0..<paths.count, using: &random)]
        let choice = Int.random(in: 0..<6, using: &random)
        if present[path] == nil {
          try write(path, text(Int.random(in: 1...12, using: &random)))
        } else if choice == 0 {
          try FileManager.default.removeItem(atPath: repository.path + "/" + path)
          present[path] = nil
        } else if choice <= 2 {
          // A rename, exact or with an edit, anywhere: into, out of and within excluded places.
          let target = paths[Int.random(in: 0..<paths.count, using: &random)]
          guard present[target] == nil, path.hasSuffix(".bin") == target.hasSuffix(".bin") else { continue }
          try makeFolder(for: target)
          try FileManager.default.moveItem(atPath: repository.path + "/" + path, toPath: repository.path + "/" + target)
          present[target] = present.removeValue(forKey: path)
          if choice == 2, !target.hasSuffix(".bin") { try write(target, present[target]! + text(2)) }
        } else {
          var lines = present[path]!
          for _ in 0..<Int.random(in: 1...4, using: &random) {
            let at = Int.random(in: 0...lines.count, using: &random)
            if Bool.random(using: &random), at < lines.count {
              lines.remove(at: at)
            } else {
              lines.insert("new \(index)", at: at)
            }
          }
          try write(path, lines)
        }
      }
      let minute = String(format: "%02d", index % 60)
      try repository.commit(message: "Change \(index)", date: "2026-03-10T\(7 + index / 60):\(minute):00Z")
      count += 1
    }
    return count
  }

  @Test func countsEqualGitPathspecExclusion() async throws {
    let sandbox = try JournalSandbox()
    let repository = try sandbox.makeRepository("app")
    try sandbox.register(repository)
    let total = try Self.makeHistory(repository)

    // Each pattern set in turn, with the stats cache on: changing the patterns computes the counts afresh.
    for patterns in Self.patternSets + [[]] {
      try? sandbox.unset("journal.excludePaths")
      for pattern in patterns { try sandbox.addConfiguration("journal.excludePaths", pattern) }
      let pathspec = ["."] + patterns.map { ":(exclude)\($0)" }
      let logged = try repository.log(["--branches", "--no-merges", "--full-history"], pathspec: pathspec)
      let report = try await sandbox.report("2026-03-10")
      #expect(report.commitCount == total, "\(patterns): every commit counts, touching excluded files only or not")
      let journal = Dictionary(uniqueKeysWithValues: report.allCommits.map { ($0.id.hex, $0) })
      var seen = Set<String>()
      for commit in logged {
        seen.insert(commit.id)
        let counted = try #require(journal[commit.id], "\(commit.subject) is missing")
        let stats = DiffStats(
          filesChanged: counted.filesChanged, insertions: counted.insertions, deletions: counted.deletions)
        #expect(stats == commit.stats, "\(patterns): \(commit.subject)")
      }
      for commit in report.allCommits where !seen.contains(commit.id.hex) {
        #expect(
          commit.filesChanged == 0 && commit.insertions == 0 && commit.deletions == 0, "\(patterns): \(commit.subject)")
      }
      if !patterns.isEmpty { #expect(logged.count < total, "\(patterns) leaves out some commit: a test that can fail") }
    }
  }

  /// `repo.<name>.excludePaths` adds to the journal's patterns for that repository only.
  @Test func repositoryPatternsAddToTheJournals() async throws {
    let sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    let site = try sandbox.makeRepository("site")
    try sandbox.register(app)
    try sandbox.register(site)
    for (hour, repository) in [(9, app), (10, site)] {
      try repository.write("a\nb\n", to: "yarn.lock")
      try repository.write("x\n", to: "dist/bundle.js")
      try repository.write("code\n", to: "main.c")
      try repository.commit(message: "Add", date: "2026-03-10T\(hour):00:00Z")
    }
    try sandbox.addConfiguration("journal.excludePaths", "*.lock")
    try sandbox.addConfiguration("repo.app.excludePaths", "dist/")
    let report = try await sandbox.report("2026-03-10")
    let appCounts = try #require(report.projects.first { $0.name == "app" })
    let siteCounts = try #require(report.projects.first { $0.name == "site" })
    #expect(appCounts.filesChanged == 1 && appCounts.insertions == 1)
    #expect(siteCounts.filesChanged == 2 && siteCounts.insertions == 2)
  }

  /// `journal.ignoreAuthors` keeps bots out of `--all-authors`; one's own view is unchanged.
  @Test func ignoredAuthorsLeaveAllAuthorsViews() async throws {
    let sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    try sandbox.register(app)
    try app.commit(file: "a", content: "a\n", message: "Mine", date: "2026-03-10T09:00:00Z")
    try app.commit(file: "b", content: "b\n", message: "Bob's", date: "2026-03-10T10:00:00Z", email: "bob@example.com")
    try app.commit(
      file: "c", content: "c\n", message: "Bump", date: "2026-03-10T11:00:00Z",
      email: "49699333+dependabot[bot]@users.noreply.github.com")
    try app.commit(
      file: "d", content: "d\n", message: "Deploy", date: "2026-03-10T12:00:00Z", email: "CI-Robot@Example.com")
    #expect(try await sandbox.report("2026-03-10", "--all-authors").commitCount == 4)
    try sandbox.addConfiguration("journal.ignoreAuthors", "*[bot]@users.noreply.github.com")
    try sandbox.addConfiguration("journal.ignoreAuthors", "nobody?@example.com")
    try sandbox.addConfiguration("journal.ignoreAuthors", "ci-robot@example.com")
    let all = try await sandbox.report("2026-03-10", "--all-authors")
    #expect(all.allCommits.map(\.subject).sorted() == ["Bob's", "Mine"])
    #expect(try await sandbox.report("2026-03-10").allCommits.map(\.subject) == ["Mine"])
  }

  @Test func patternsAreMatchedAsGitMatchesThem() throws {
    let filter = try #require(PathFilter(patterns: ["*.lock", "package-lock.json", "dist", "docs/", "x.*"]))
    for path in ["a.lock", "web/yarn.lock", "package-lock.json", "dist/a.js", "dist/css/b.css", "docs/a", "x.y/z"] {
      #expect(filter.excludes(path), "\(path)")
    }
    for path in ["a.lock.txt", "web/package-lock.json", "src/dist/a.js", "distance.txt", "docs", "a/x.y"] {
      #expect(!filter.excludes(path), "\(path)")
    }
    #expect(PathFilter(patterns: []) == nil)
    #expect(PathFilter.problem(with: ":(glob)*.lock") != nil)
    #expect(PathFilter.problem(with: "/etc") != nil)
    #expect(PathFilter.problem(with: "") != nil)
  }
}
