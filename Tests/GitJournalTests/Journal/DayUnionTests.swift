import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Journal
@testable import Support

/// The day as every machine recorded it (issue 20): each commit once, projects joined by name, the same result
/// whatever order the records come in, and the one reader of records, `DayRecordStore.recorded`.
@Suite struct DayUnionTests {
  static let day = Day(year: 2026, month: 11, day: 30)

  static func commit(_ digit: String, at time: Int64, _ subject: String) throws -> CommitRecord {
    CommitRecord(
      id: try #require(ObjectID(hex: String(repeating: digit, count: 40))), authorName: "Ada",
      authorEmail: "ada@example.com", authoredAt: time, authorOffsetMinutes: 0, subject: subject, isMerge: false,
      stats: DiffStats(filesChanged: 1, insertions: 2, deletions: 1))
  }

  static func project(_ name: String, _ path: String, private isPrivate: Bool = false, _ commits: [CommitRecord])
    -> ProjectFacts
  {
    ProjectFacts(name: name, path: path, isPrivate: isPrivate, commits: commits)
  }

  /// Laptop and desktop both cloned `app` (named differently on the desktop) and each has a project of its own.
  static func records() throws -> [(host: String, facts: DayFacts)] {
    let shared = try commit("a", at: 1_796_032_800, "Shared change")
    let laptopOnly = try commit("b", at: 1_796_036_400, "Laptop change")
    let desktopOnly = try commit("c", at: 1_796_036_400, "Desktop change")
    let notes = try commit("d", at: 1_796_040_000, "Notes")
    return [
      (
        "laptop",
        DayFacts(
          day: day, projects: [project("app", "/home/ada/app", [shared, laptopOnly]), project("notes", "/n", [notes])])
      ),
      (
        "desktop",
        DayFacts(
          day: day,
          projects: [
            project("application", "/Users/ada/app", [shared, desktopOnly]),
            project("notes", "/Users/ada/notes", private: true, [notes]),
          ])
      ),
    ]
  }

  @Test func eachCommitOnceUnderTheFirstMachineByName() throws {
    let records = try Self.records()
    let union = DayFacts.union(of: Self.day, records: records)
    #expect(union.commitCount == 4)
    // "desktop" sorts first: the shared commit is the desktop's, under its name.
    #expect(union.projects.map(\.name) == ["application", "app", "notes"].sorted())
    let application = try #require(union.projects.first { $0.name == "application" })
    #expect(application.commits.map(\.subject) == ["Shared change", "Desktop change"])
    let app = try #require(union.projects.first { $0.name == "app" })
    #expect(app.commits.map(\.subject) == ["Laptop change"])
    // Private on any machine is private.
    #expect(union.projects.first { $0.name == "notes" }?.isPrivate == true)
  }

  @Test func theOrderOfTheRecordsChangesNothing() throws {
    let records = try Self.records()
    let union = DayFacts.union(of: Self.day, records: records)
    #expect(DayFacts.union(of: Self.day, records: records.reversed()) == union)
    let calendar = JournalCalendar(timeZone: .utc, dayStartMinutes: 0)
    #expect(
      DayFacts.union(of: Self.day, records: records.reversed()).signature(calendar: calendar)
        == union.signature(calendar: calendar))
    // One machine's facts are the day's as they are.
    #expect(DayFacts.union(of: Self.day, records: [records[0]]) == records[0].facts)
  }

  @Test func aForgottenCommitIsHiddenInTheOtherMachinesRecords() throws {
    let records = try Self.records()
    let shared = try #require(ObjectID(hex: String(repeating: "a", count: 40)))
    let laptopOnly = try #require(ObjectID(hex: String(repeating: "b", count: 40)))
    // The laptop forgot `app`: its record lost the project, and it lists the commits.
    let forgetting = DayFacts(day: Self.day, projects: records[0].facts.projects.filter { $0.name != "app" })
    let union = DayFacts.union(
      of: Self.day, records: [("laptop", forgetting), records[1]], forgotten: ["laptop": [shared, laptopOnly]])
    #expect(!union.projects.flatMap(\.commits).contains { $0.id == shared })
    #expect(union.projects.flatMap(\.commits).map(\.subject).sorted() == ["Desktop change", "Notes"])
    // The machine that forgot it and reads it again (the repository added back) shows it again, once.
    let again = DayFacts.union(of: Self.day, records: records, forgotten: ["laptop": [shared, laptopOnly]])
    #expect(again.commitCount == 4)
  }

  @Test func theStoreReadsEveryMachinesRecordsAndTheirForgottenCommits() throws {
    let scratch = try ScratchDirectory("gitjournal-union")
    let journal = scratch.path("journal")
    let records = try Self.records()
    for record in records {
      try DayRecordStore(journalDirectory: journal, host: record.host).write(record.facts, durable: false)
    }
    // Not machines: the conflicts folder, a name no machine has, a stray file.
    try scratch.write("x", to: "journal/.gitjournal/conflicts/2026-11-30.md")
    try scratch.write("x", to: "journal/.gitjournal/.DS_Store")
    let laptop = DayRecordStore(journalDirectory: journal, host: "laptop")
    #expect(laptop.machines() == ["desktop", "laptop"])
    // The laptop's own record comes first on the laptop: the shared commit is its own.
    let union = DayFacts.union(of: Self.day, records: records, own: "laptop")
    #expect(union.projects.first { $0.name == "app" }?.commits.map(\.subject) == ["Shared change", "Laptop change"])
    #expect(laptop.recorded(Self.day) == union)
    #expect(laptop.recorded(Self.day, own: records[0].facts) == union)
    #expect(laptop.read(Self.day) == records[0].facts)
    #expect(laptop.recorded(Self.day.adding(days: 1)) == nil)
    #expect(laptop.allDays() == [Self.day])

    let shared = try #require(ObjectID(hex: String(repeating: "a", count: 40)))
    try laptop.forget([shared])
    #expect(laptop.forgotten() == ["laptop": [shared]])
    // The laptop's own record is its word: it still holds the commit.
    #expect(laptop.recorded(Self.day)?.commitCount == 4)
    let forgetting = DayFacts(day: Self.day, projects: records[0].facts.projects.filter { $0.name != "app" })
    try laptop.write(forgetting, durable: false)
    #expect(laptop.recorded(Self.day)?.commitCount == 2)
    // A damaged list hides nothing.
    let path = journal + "/.gitjournal/laptop/" + ForgottenCommits.fileName
    let text = try String(contentsOfFile: path, encoding: .utf8)
    try Data(text.dropLast("end\n".count).utf8).write(to: URL(fileURLWithPath: path))
    #expect(laptop.recorded(Self.day)?.commitCount == 3)
  }

  /// A machine whose gitjournal predates branch names records none: the branch another machine recorded shows.
  @Test func aBranchRecordedByAnyMachineShows() throws {
    let plain = try Self.commit("a", at: 1_796_032_800, "Shared change")
    var named = plain
    named.branch = "topic"
    let union = DayFacts.union(
      of: Self.day,
      records: [
        ("alpha", DayFacts(day: Self.day, projects: [Self.project("app", "/a", [plain])])),
        ("beta", DayFacts(day: Self.day, projects: [Self.project("app", "/b", [named])])),
      ])
    #expect(union.projects.map(\.path) == ["/a"])
    #expect(union.projects.first?.commits.map(\.branch) == ["topic"])
  }
}
