import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Journal
@testable import Support

/// Day records keep every fact of a day through a write and a read, and a damaged record is no record.
@Suite struct DayRecordTests {
  static let day = Day(year: 2026, month: 11, day: 30)

  static func facts() throws -> DayFacts {
    let commit = CommitRecord(
      id: try #require(ObjectID(hex: String(repeating: "ab", count: 20))), authorName: "Ada\tLovelace",
      authorEmail: "ada@example.com", authoredAt: 1_764_500_000, authorOffsetMinutes: -90,
      subject: "Fix \\ the\nsync\r conflict – naïve", isMerge: false,
      stats: DiffStats(filesChanged: 3, insertions: 120, deletions: 8))
    let merge = CommitRecord(
      id: try #require(ObjectID(hex: String(repeating: "cd", count: 20))), authorName: "Ada", authorEmail: "a@b.c",
      authoredAt: 1_764_510_000, authorOffsetMinutes: 60, subject: "Merge", isMerge: true, stats: .zero)
    return DayFacts(
      day: day,
      projects: [
        ProjectFacts(name: "notes app", path: "/home/ada/notes", isPrivate: false, commits: [commit]),
        ProjectFacts(name: "billing", path: "/srv/billing.git", isPrivate: true, commits: [merge]),
      ])
  }

  @Test func aRecordGivesBackEveryFact() throws {
    let scratch = try ScratchDirectory("gitjournal-records")
    let store = DayRecordStore(journalDirectory: scratch.path("journal"), host: "laptop")
    let facts = try Self.facts()
    try store.write(facts, durable: false)
    #expect(store.read(Self.day) == facts)
    #expect(store.days() == [Self.day])
    #expect(store.read(Self.day.adding(days: 1)) == nil)
  }

  @Test func aCutOrForeignRecordIsNoRecord() throws {
    let scratch = try ScratchDirectory("gitjournal-records")
    let store = DayRecordStore(journalDirectory: scratch.path("journal"), host: "laptop")
    try store.write(try Self.facts(), durable: false)
    let path = store.path(of: Self.day)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for damaged in [
      String(text.dropLast("end\n".count)),  // cut before its end
      text.replacingOccurrences(of: "day\t1\t", with: "day\t2\t"),  // another format
      text.replacingOccurrences(of: "\t120\t", with: "\tmany\t"),  // a number that is not one
      text.replacingOccurrences(of: "2026-11-30", with: "2026-12-01"),  // another day's record
    ] {
      try Data(damaged.utf8).write(to: URL(fileURLWithPath: path))
      #expect(store.read(Self.day) == nil, "read a damaged record: \(damaged.prefix(80))")
    }
  }
}
