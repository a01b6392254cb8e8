import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import GitReader
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
    repository = try sandbox.makeRepository("app")
    try sandbox.register(repository)
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
    try await journaling.rebuild(days: days, policy: .rebuild(), writers: 1)
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

  @Test func theUsersNotesSurviveARebuildOnSeveralThreads() async throws {
    try await journaling.rebuild(days: days, policy: .rebuild(), writers: 4)
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
