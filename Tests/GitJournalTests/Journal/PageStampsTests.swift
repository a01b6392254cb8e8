import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import GitReader
@testable import Journal
@testable import Support

/// A rebuild leaves a day's page alone only while everything it is made from is as the last rebuild left it; each
/// way one of them can change behind the rebuild's back makes the page again. In process, with real repositories.
@Suite struct PageStampsTests {
  let sandbox: JournalSandbox
  let repository: TemporaryRepository
  static let days = (first: Day(year: 2026, month: 2, day: 1), last: Day(year: 2026, month: 2, day: 20))
  static let eleventh = Day(year: 2026, month: 2, day: 11)

  init() throws {
    sandbox = try JournalSandbox()
    repository = try sandbox.makeRegisteredRepository("app")
    try repository.commit(file: "a.txt", content: "a\n", message: "On the tenth", date: "2026-02-10T09:00:00Z")
    try repository.commit(file: "b.txt", content: "b\n", message: "On the eleventh", date: "2026-02-11T09:00:00Z")
    try repository.commit(file: "c.txt", content: "c\n", message: "On the twelfth", date: "2026-02-12T09:00:00Z")
  }

  var journaling: Journaling {
    get throws {
      let environment = sandbox.environment()
      return Journaling(configuration: try Configuration.load(environment), environment: environment)
    }
  }

  /// One rebuild of the range; returns how many pages it left alone.
  @discardableResult
  func rebuild() async throws -> Int {
    try await rebuildReport().pagesLeftAlone
  }

  func rebuildReport() async throws -> Journaling.Report {
    let days = Self.days.first.through(Self.days.last)
    return try await journaling.rebuild(days: days, policy: .rebuild())
  }

  /// A first rebuild writes every page and waits until the last is a tenth of a second old, so that it keeps all
  /// their stamps (`PageStamps.settlingDelay`): the next one leaves them alone.
  func settle() async throws {
    try await rebuild()
    // Three days, their week and their month.
    #expect(try await rebuild() == 5, "the pages were read although nothing changed")
  }

  var page: String { sandbox.journalDirectory + "/2026-02-11.md" }

  @Test func pagesAreLeftAloneWhileNothingChanges() async throws {
    try await settle()
    let before = try #require(sandbox.journalFile("2026-02-11"))
    let report = try await rebuildReport()
    #expect(report.pagesLeftAlone == 5)
    #expect(report.recordsTakenAsHeld == 3, "the days' records were read although nothing changed")
    #expect(sandbox.journalFile("2026-02-11") == before)
  }

  /// gitjournal's front matter changed in place, to the same size, with the old modification time put back: the
  /// change time shows, and the page is made again.
  @Test func anEditInPlaceIsSeen() async throws {
    try await settle()
    let original = try #require(sandbox.journalFile("2026-02-11"))
    var info = stat()
    #expect(stat(page, &info) == 0)
    try #require(original.contains("\ncommits: 1\n"))
    let edited = original.replacingOccurrences(of: "\ncommits: 1\n", with: "\ncommits: 7\n")
    let handle = try #require(FileHandle(forWritingAtPath: page))
    try handle.write(contentsOf: Data(edited.utf8))
    try handle.close()
    var times = [info.st_atim, info.st_mtim]
    #expect(utimensat(AT_FDCWD, page, &times, 0) == 0)
    #expect(try await rebuild() == 4)
    #expect(sandbox.journalFile("2026-02-11") == original, "the front matter edited in place was not made again")
  }

  /// This machine's record of the day rewritten without its page (a hook killed between the two): the page is made
  /// from the record, although its own file and the facts read now are as the rebuild left them.
  @Test func aRecordWrittenWithoutItsPageIsSeen() async throws {
    try await settle()
    try repository.commit(file: "d.txt", content: "d\n", message: "Later that day", date: "2026-02-11T15:00:00Z")
    let journaling = try journaling
    let facts = await journaling.current(Self.eleventh, policy: .rebuild()).facts
    try await journaling.store.locked { locked in
      try locked.writeRecord(facts, durability: .immediate, recorded: .unread)
    }
    #expect(sandbox.journalFile("2026-02-11")?.contains("Later that day") == false)
    #expect(try await rebuild() == 2, "the week's and the month's pages were left with the old record")
    #expect(sandbox.journalFile("2026-02-11")?.contains("Later that day") == true, "the page missed its record")
  }

  /// The record of a day is not read while the last rebuild found it holding the facts read now and it is as that
  /// rebuild left it. Replaced behind the rebuild's back (another version of gitjournal, a tool) with other facts,
  /// it is read, and the facts read from the repository put back in it and in the page.
  @Test func aRecordReplacedBehindTheRebuildIsRead() async throws {
    try await settle()
    let journaling = try journaling
    let mine = try #require(journaling.store.record(of: Self.eleventh))
    try await journaling.store.locked { locked in
      try locked.writeRecord(Self.renamingTheCommit(of: mine), durability: .immediate, recorded: .unread)
    }
    let report = try await rebuildReport()
    #expect(report.pagesLeftAlone == 2, "the day's, week's and month's pages were left from the old record")
    #expect(report.recordsTakenAsHeld == 2, "the other days' records were read")
    #expect(journaling.store.record(of: Self.eleventh) == mine, "the record replaced behind the rebuild stayed")
    #expect(sandbox.journalFile("2026-02-11")?.contains("Said otherwise") == false)
  }

  /// The same, the record edited in place to the same size with its modification time put back: the change time
  /// shows.
  @Test func aRecordEditedInPlaceIsRead() async throws {
    try await settle()
    let journaling = try journaling
    let mine = try #require(journaling.store.record(of: Self.eleventh))
    let path = journaling.store.recordPath(of: Self.eleventh)
    let original = try String(contentsOfFile: path, encoding: .utf8)
    try #require(original.contains("On the eleventh"))
    var info = stat()
    #expect(stat(path, &info) == 0)
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.write(
      contentsOf: Data(original.replacingOccurrences(of: "On the eleventh", with: "On the Eleventh").utf8))
    try handle.close()
    var times = [info.st_atim, info.st_mtim]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    #expect(journaling.store.record(of: Self.eleventh) != mine)
    #expect(try await rebuild() == 2)
    #expect(journaling.store.record(of: Self.eleventh) == mine, "the record edited in place stayed")
  }

  /// A commit added to a day whose record is as the last rebuild left it: the facts read differ from those the
  /// record was found holding, and the record takes the new commit.
  @Test func newFactsForAnUnchangedRecordAreWritten() async throws {
    try await settle()
    try repository.commit(file: "d.txt", content: "d\n", message: "Later that day", date: "2026-02-11T15:00:00Z")
    #expect(try await rebuild() == 2)
    let journaling = try journaling
    let recorded = try #require(journaling.store.record(of: Self.eleventh))
    #expect(recorded.projects.flatMap(\.commits).map(\.subject).sorted() == ["Later that day", "On the eleventh"])
  }

  /// `facts` with its first commit's subject changed.
  static func renamingTheCommit(of facts: DayFacts) throws -> DayFacts {
    let project = try #require(facts.projects.first)
    var commits = project.commits
    commits[0].subject = "Said otherwise"
    return DayFacts(
      day: facts.day,
      projects: [ProjectFacts(name: project.name, path: project.path, isPrivate: project.isPrivate, commits: commits)])
  }

  /// A sentence another machine shared for exactly these facts, with nothing else changed.
  @Test func aSharedSentenceIsSeen() async throws {
    try await settle()
    let journaling = try journaling
    let facts = try #require(try await journaling.recorded(Self.eleventh))
    let sentence = "A day of small fixes."
    journaling.store.share(
      sentence: sentence, of: Self.eleventh, signature: facts.signature(calendar: journaling.configuration.calendar))
    #expect(try await rebuild() == 4)
    #expect(sandbox.journalFile("2026-02-11")?.contains(sentence) == true, "the shared sentence is missing")
  }

  /// Another machine's record of the day arrives: every page is made from all the records.
  @Test func anotherMachinesRecordIsSeen() async throws {
    try await settle()
    let journaling = try journaling
    let mine = try #require(journaling.store.record(of: Self.eleventh))
    let project = try #require(mine.projects.first)
    var commit = try #require(project.commits.first)
    commit.id = ObjectID(hex: String(repeating: "e", count: 40))!
    commit.subject = "From the desktop"
    let theirs = DayFacts(
      day: Self.eleventh,
      projects: [ProjectFacts(name: "site", path: "/elsewhere/site", isPrivate: false, commits: [commit])])
    try DayRecordStore(journalDirectory: sandbox.journalDirectory, host: "desktop").write(theirs, durable: false)
    #expect(try await rebuild() == 0)
    #expect(sandbox.journalFile("2026-02-11")?.contains("From the desktop") == true)
  }

  /// A new day's file in the range changes its neighbour's links.
  @Test func newLinksAreSeen() async throws {
    try await settle()
    try repository.commit(file: "e.txt", content: "e\n", message: "On the fifteenth", date: "2026-02-15T09:00:00Z")
    // The tenth and the eleventh; the twelfth's links changed, and the week's and the month's days.
    #expect(try await rebuild() == 2)
    #expect(sandbox.journalFile("2026-02-12")?.contains("2026-02-15") == true, "the twelfth links the old next day")
  }

  /// A week's page: a sentence shared for it, and its front matter edited in place with the old modification time.
  @Test func aWeeksSentenceAndAnEditInPlaceAreSeen() async throws {
    try await settle()
    let journaling = try journaling
    let week = PeriodFacts.Period.week(Week(containing: Self.eleventh, starting: .monday))
    let facts = try await journaling.recorded(week)
    let sentence = "A week of small fixes."
    journaling.store.share(
      sentence: sentence, of: week, signature: facts.signature(calendar: journaling.configuration.calendar))
    #expect(try await rebuild() == 4)
    let path = sandbox.journalDirectory + "/\(facts.name).md"
    let original = try String(contentsOfFile: path, encoding: .utf8)
    #expect(original.contains(sentence), "the week's shared sentence is missing")

    // That rebuild waited until the page it wrote was a tenth of a second old, and kept its stamp: the next one
    // leaves it alone.
    #expect(try await rebuild() == 5)
    var info = stat()
    #expect(stat(path, &info) == 0)
    try #require(original.contains("\ncommits: 3\n"))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.write(contentsOf: Data(original.replacingOccurrences(of: "\ncommits: 3\n", with: "\ncommits: 8\n").utf8))
    try handle.close()
    var times = [info.st_atim, info.st_mtim]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    #expect(try await rebuild() == 4)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == original, "the week's page edited in place stayed")
  }

  /// A damaged or foreign stamps file is a miss, never a page left stale.
  @Test func aDamagedStampsFileIsAMiss() async throws {
    try await settle()
    let folder = sandbox.scratch.path("home/.cache/gitjournal/pages-v3")
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
    try Data("key\tnot-this-one\n".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
    #expect(try await rebuild() == 0)
  }

  /// A rebuild that left every page alone leaves the stamps file as it was; one that made a page again writes it, and
  /// the next leaves every page alone, that one too.
  @Test func theStampsFileIsWrittenOnlyWhenAPageChanged() async throws {
    try await settle()
    let folder = sandbox.scratch.path("home/.cache/gitjournal/pages-v3")
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
    let before = try #require(FileStamp(path: folder + "/" + name))
    #expect(try await rebuild() == 5)
    #expect(FileStamp(path: folder + "/" + name) == before, "the stamps file was written though nothing changed")

    // The day's page removed: made again, and its stamp kept once the rebuild waited until it was a tenth of a
    // second old.
    #expect(unlink(page) == 0)
    #expect(try await rebuild() == 4)
    #expect(FileStamp(path: folder + "/" + name) != before, "the stamps file kept the page that was made again")
    #expect(try await rebuild() == 5)
  }

  /// The stamps in their former format, which no build reads, are removed by the next rebuild, and their folder with
  /// them.
  @Test func theFormerStampsFileIsRemoved() async throws {
    try await settle()
    let cache = sandbox.scratch.path("home/.cache/gitjournal")
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: cache + "/pages-v3").first)
    try FileManager.default.createDirectory(atPath: cache + "/pages-v2", withIntermediateDirectories: true)
    try Data("key\told\n".utf8).write(to: URL(fileURLWithPath: cache + "/pages-v2/" + name))
    #expect(try await rebuild() == 5)
    #expect(!FileManager.default.fileExists(atPath: cache + "/pages-v2"))
  }
}
