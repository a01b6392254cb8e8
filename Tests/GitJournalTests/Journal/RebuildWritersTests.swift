import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import Journal
@testable import Support

/// A rebuild writes its days on several threads: the journal it leaves is the one a single thread leaves, byte for
/// byte; a day that cannot be written is named once and the others are written; the user's text is kept. In
/// process, with a real repository of many days.
@Suite struct RebuildWritersTests {
  let sandbox: JournalSandbox
  let repository: TemporaryRepository
  static let first = Day(year: 2025, month: 11, day: 1)
  static let last = Day(year: 2026, month: 2, day: 28)

  /// 400 commits on about 90 of the 120 days, several on most of those, with diffs of a few lines.
  init() throws {
    sandbox = try JournalSandbox()
    repository = try sandbox.makeRegisteredRepository("app")
    var generator = SeededGenerator(seed: 18)
    let start = Int64(1_761_955_200)  // 2025-11-01T00:00:00Z
    let days = Self.first.distance(to: Self.last) + 1
    let busyDays = (0..<days).filter { _ in Int.random(in: 0..<4, using: &generator) != 0 }
    let times = (0..<400).map { _ in
      start + Int64(busyDays.randomElement(using: &generator)!) * 86_400
        + Int64.random(in: 0..<86_400, using: &generator)
    }.sorted()
    var script = FastImportScript()
    for (number, time) in times.enumerated() {
      script.commit(
        branch: "main", email: TemporaryRepository.email, authorTime: time, committerTime: time, zone: "+0000",
        message: "Change \(number)\n",
        changes: [
          .write(
            path: "f\(number % 7).txt",
            content: String(repeating: "line \(number)\n", count: Int.random(in: 1...9, using: &generator)))
        ])
    }
    try repository.importHistory(script)
  }

  var journaling: Journaling {
    get throws {
      let environment = sandbox.environment()
      return Journaling(configuration: try Configuration.load(environment), environment: environment)
    }
  }

  var days: [Day] { Self.first.through(Self.last) }

  /// Every file under the journal folder (day records included), by path inside it.
  func files() throws -> [String: Data] {
    let root = sandbox.journalDirectory
    var files: [String: Data] = [:]
    let enumerator = try #require(FileManager.default.enumerator(atPath: root))
    while let name = enumerator.nextObject() as? String {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isFolder), !isFolder.boolValue
      else { continue }
      files[name] = FileManager.default.contents(atPath: root + "/" + name)
    }
    return files
  }

  /// No journal and no caches: the next rebuild is a cold one into a new journal folder.
  func startOver() throws {
    try FileManager.default.removeItem(atPath: sandbox.journalDirectory)
    try? FileManager.default.removeItem(atPath: sandbox.home + "/.cache")
  }

  @Test func daysWrittenOnSeveralThreadsAreTheFilesOneThreadWrites() async throws {
    let alone = try await journaling.rebuild(days: days, policy: .rebuild(), writers: 1)
    let single = try files()
    try startOver()
    let spread = try await journaling.rebuild(days: days, policy: .rebuild(), writers: 4)
    let several = try files()

    #expect(alone.unwritten.isEmpty && spread.unwritten.isEmpty)
    #expect(spread.written.map(\.facts.day) == alone.written.map(\.facts.day))
    #expect(spread.written.map(\.outcome) == alone.written.map(\.outcome))
    #expect(spread.periods.map(\.facts.name) == alone.periods.map(\.facts.name))
    let dayFiles = single.keys.filter { $0.utf8.count == 13 && $0.hasSuffix(".md") }
    #expect(dayFiles.count > 80, "\(dayFiles.count) day files")
    #expect(single.keys.contains("2025-W45.md") && single.keys.contains("2026-02.md"))
    #expect(several.keys.sorted() == single.keys.sorted())
    for (name, bytes) in single where several[name] != bytes {
      Issue.record("\(name) differs from the one-thread rebuild's")
    }
    // A second rebuild on several threads leaves every page as it is.
    let again = try await journaling.rebuild(days: days, policy: .rebuild(), writers: 4)
    #expect(again.unwritten.isEmpty)
    #expect(try files() == single)
  }

  @Test func aDayThatCannotBeWrittenIsNamedOnceAndTheOthersAreWritten() async throws {
    _ = try await journaling.rebuild(days: days, policy: .rebuild(), writers: 1)
    let pages = try files().keys.filter { !$0.hasPrefix(".") }.sorted()
    let dayPages = pages.filter { $0.utf8.count == 13 }
    try startOver()
    // A folder where a day's page belongs, in the middle of the range: gitjournal neither reads nor replaces it.
    let blocked = dayPages[dayPages.count / 2]
    let blockedPath = sandbox.journalDirectory + "/" + blocked
    try FileManager.default.createDirectory(atPath: blockedPath, withIntermediateDirectories: true)

    let result = await sandbox.run("rebuild", "--since", "\(Self.first)", "--until", "\(Self.last)", "--no-narrative")
    #expect(result.status == 1, "\(result)")
    #expect(result.standardError.components(separatedBy: blockedPath).count == 2, "\(result.standardError)")
    #expect(
      result.standardError.hasSuffix(
        "error: cannot read \(blockedPath): it is a folder, not a regular file, "
          + "so gitjournal neither reads nor replaces it; move it away\n"), "\(result.standardError)")
    let written = try files().keys.filter { !$0.hasPrefix(".") }.sorted()
    #expect(written == pages.filter { $0 != blocked }, "every other page is written")
    #expect(result.standardOutput.split(separator: "\n").count == dayPages.count - 1, "\(result.standardOutput)")
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: blockedPath, isDirectory: &isFolder) && isFolder.boolValue)
  }

  /// A day without commits is looked at when it has a page or a record of any machine, each listed once per
  /// rebuild (`JournalStore.daysWithPageOrRecord`): a page whose commits are gone goes, and another machine's record
  /// makes one. A day with neither gets no file.
  @Test func daysWithoutCommitsAreVisitedOnlyWhenTheyHaveAFile() async throws {
    _ = try await journaling.rebuild(days: days, policy: .rebuild(), writers: 2)
    let store = try journaling.store
    let busy = try files().keys.filter { !$0.hasPrefix(".") && $0.utf8.count == 13 }.sorted()
    let quiet = days.filter { !busy.contains("\($0).md") }
    #expect(quiet.count > 10)
    // Two quiet days get a copy of a busy day's page, one alone and one with a copy of its record under another
    // machine's name; a third gets only that record.
    let source = busy[0]
    let page = try #require(FileManager.default.contents(atPath: sandbox.journalDirectory + "/" + source))
    let sourceDay = try #require(Day(iso: String(source.dropLast(3))))
    let record = try String(contentsOfFile: store.recordPath(of: sourceDay), encoding: .utf8)
    let otherMachine = PathText.folder(of: store.recordFolder) + "/other-machine"
    try FileManager.default.createDirectory(atPath: otherMachine, withIntermediateDirectories: true)
    let (pageOnly, both, recordOnly, neither) = (quiet[2], quiet[5], quiet[8], quiet[11])
    for day in [pageOnly, both] {
      #expect(FileManager.default.createFile(atPath: sandbox.journalDirectory + "/\(day).md", contents: page))
    }
    for day in [both, recordOnly] {
      // The record of another day, its commits moved with it (a record's commits lie within days of its day).
      let shift = Int64(sourceDay.distance(to: day)) * 86_400
      let moved = record.replacingOccurrences(of: "\t\(sourceDay)\n", with: "\t\(day)\n").split(
        separator: "\n", omittingEmptySubsequences: false
      ).map { line -> String in
        var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        if fields.first == "commit", fields.count > 2, let time = Int64(fields[2]) { fields[2] = String(time + shift) }
        return fields.joined(separator: "\t")
      }.joined(separator: "\n")
      #expect(moved != record)
      try moved.write(toFile: otherMachine + "/\(day).tsv", atomically: true, encoding: .utf8)
    }
    #expect(
      store.daysWithPageOrRecord(machines: store.recordingMachines())?.isSuperset(of: [pageOnly, both, recordOnly])
        == true)

    _ = try await journaling.rebuild(days: days, policy: .rebuild(), writers: 2)
    let copied = String(decoding: page, as: UTF8.self)
    func text(_ day: Day) -> String {
      (try? String(contentsOfFile: sandbox.journalDirectory + "/\(day).md", encoding: .utf8)) ?? "no page"
    }
    // The page alone says its commits are gone; with the other machine's record, and from it alone, the page lists
    // that record's commits.
    #expect(text(pageOnly).contains("commits: 0\n"), "\(text(pageOnly))")
    for day in [both, recordOnly] {
      #expect(text(day).contains("date: \(day)\n") && !text(day).contains("commits: 0\n"), "\(day): \(text(day))")
    }
    #expect(text(pageOnly) != copied && text(both) != copied)
    #expect(!FileManager.default.fileExists(atPath: sandbox.journalDirectory + "/\(neither).md"))
  }

  /// A rebuild of one day remakes its week's and month's pages with the other days' records, listed once under the
  /// lock (`JournalStore.daysWithRecords`): their commits stay on those pages.
  @Test func aRebuiltDaysWeekKeepsTheOtherDaysCommits() async throws {
    _ = try await journaling.rebuild(days: days, policy: .rebuild(), writers: 2)
    func commits(onPage name: String) throws -> Int {
      let text = try String(contentsOfFile: sandbox.journalDirectory + "/\(name).md", encoding: .utf8)
      let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("commits: ") })
      return try #require(Int(line.dropFirst("commits: ".count)))
    }
    // A day with commits in the week of Monday 8 December 2025, within its month.
    let day = try #require(
      (8...12).map { Day(year: 2025, month: 12, day: $0) }.first {
        FileManager.default.fileExists(atPath: sandbox.journalDirectory + "/\($0).md")
      })
    let (week, month) = ("2025-W50", "2025-12")
    let before = (try commits(onPage: week), try commits(onPage: month), try commits(onPage: "\(day)"))
    #expect(before.0 > before.2 + 5 && before.1 > before.0)

    try repository.commit(file: "late.txt", content: "late\n", message: "Late", date: "\(day)T23:30:00Z")
    _ = try await journaling.rebuild(days: [day], policy: .rebuild(), writers: 2)
    #expect(try commits(onPage: "\(day)") == before.2 + 1)
    #expect(try commits(onPage: week) == before.0 + 1)
    #expect(try commits(onPage: month) == before.1 + 1)
  }

  /// A page beside which this machine's writer left a temporary file when it was killed is written again, which
  /// removes the file, though its stamps say it is as it would be made; then it is left alone again. Another
  /// machine's temporary file is that machine's to remove, and changes nothing here.
  @Test func aKilledWritersLeftoverIsRemovedByTheNextRebuild() async throws {
    _ = try await journaling.rebuild(days: days, policy: .rebuild(), writers: 2)
    let settled = try await journaling.rebuild(days: days, policy: .rebuild(), writers: 2)
    let pages = settled.written.count + settled.periods.count
    #expect(settled.pagesLeftAlone == pages)
    let store = try journaling.store
    let day = try #require(settled.written.first?.facts.day)
    let otherDay = try #require(settled.written.last?.facts.day)
    let week = try #require(settled.periods.first?.facts.name)
    let own = ["\(day).md", "\(week).md"].map {
      sandbox.journalDirectory + "/" + AtomicFile.lockedTemporaryName(of: $0, lockHolder: "-" + store.host)
    }
    let foreign =
      sandbox.journalDirectory + "/" + AtomicFile.lockedTemporaryName(of: "\(otherDay).md", lockHolder: "-other")
    for path in own + [foreign] { #expect(FileManager.default.createFile(atPath: path, contents: Data("---\n".utf8))) }
    #expect(store.hasFilesBeside(page: "\(day)") && store.hasFilesBeside(page: week))
    #expect(!store.hasFilesBeside(page: "\(otherDay)"), "another machine's leftover is that machine's to remove")

    let repaired = try await journaling.rebuild(days: days, policy: .rebuild(), writers: 2)
    #expect(repaired.pagesLeftAlone == pages - 2)
    for path in own { #expect(!FileManager.default.fileExists(atPath: path), "\(path) is still there") }
    #expect(FileManager.default.fileExists(atPath: foreign))
    #expect(try await journaling.rebuild(days: days, policy: .rebuild(), writers: 2).pagesLeftAlone == pages)
  }

  @Test func theUsersNotesSurviveARebuildOnSeveralThreads() async throws {
    _ = try await journaling.rebuild(days: days, policy: .rebuild(), writers: 4)
    let dayPages = try files().keys.filter { !$0.hasPrefix(".") && $0.utf8.count == 13 }.sorted()
    // Notes in every fifth day's page, and a commit on that day, so that the page must be made again.
    var notes: [String: String] = [:]
    for (index, name) in dayPages.enumerated() where index % 5 == 0 {
      let path = sandbox.journalDirectory + "/" + name
      let note = "\nMy note on \(name): kept.\n"
      let handle = try #require(FileHandle(forWritingAtPath: path))
      try handle.seekToEnd()
      try handle.write(contentsOf: Data(note.utf8))
      try handle.close()
      notes[name] = note
      let day = String(name.dropLast(3))
      try repository.commit(
        file: "late-\(index).txt", content: "late\n", message: "Late on \(day)", date: "\(day)T23:30:00Z")
    }
    #expect(notes.count > 15)
    let report = try await journaling.rebuild(days: days, policy: .rebuild(), writers: 4)
    #expect(report.unwritten.isEmpty)
    for (name, note) in notes {
      let page = try #require(sandbox.journalFile(String(name.dropLast(3))), "\(name)")
      #expect(page.hasSuffix(note), "\(name) lost the note")
      #expect(page.contains("Late on \(name.dropLast(3))"), "\(name) lacks the new commit")
    }
  }
}
