import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Journal

/// Day records keep every fact of a day through a write and a read, and a damaged record is no record.
@Suite struct DayRecordTests {
  static let day = Day(year: 2026, month: 11, day: 30)

  static func facts() throws -> DayFacts {
    let commit = CommitRecord(
      id: try #require(ObjectID(hex: String(repeating: "ab", count: 20))), authorName: "Ada\tLovelace",
      authorEmail: "ada@example.com", authoredAt: 1_796_036_000, authorOffsetMinutes: -90,
      subject: "Fix \\ the\nsync\r conflict – naïve", isMerge: false,
      stats: DiffStats(filesChanged: 3, insertions: 120, deletions: 8))
    let merge = CommitRecord(
      id: try #require(ObjectID(hex: String(repeating: "cd", count: 20))), authorName: "Ada", authorEmail: "a@b.c",
      authoredAt: 1_796_046_000, authorOffsetMinutes: 60, subject: "Merge", isMerge: true, stats: .zero)
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
      text.replacingOccurrences(of: "day\t1\t", with: "day\t3\t"),  // a format this reader does not know
      text.replacingOccurrences(of: "day\t1\t", with: "day\t2\t"),  // format 2 without the branch field
      text.replacingOccurrences(of: "\t120\t", with: "\tmany\t"),  // a number that is not one
      text.replacingOccurrences(of: "2026-11-30", with: "2026-12-01"),  // another day's record
    ] {
      try Data(damaged.utf8).write(to: URL(fileURLWithPath: path))
      #expect(store.read(Self.day) == nil, "read a damaged record: \(damaged.prefix(80))")
    }
  }

  @Test func aDayWithoutBranchesIsWrittenInTheFirstFormatAndOneWithABranchInTheSecond() throws {
    let scratch = try ScratchDirectory("gitjournal-records")
    let store = DayRecordStore(journalDirectory: scratch.path("journal"), host: "laptop")
    let plain = try Self.facts()
    try store.write(plain, durable: false)
    let path = store.path(of: Self.day)
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("day\t1\t2026-11-30\n"))

    let named = DayFacts(
      day: Self.day,
      projects: plain.projects.map { project in
        guard project.name == "billing" else { return project }
        var commits = project.commits
        commits[0].branch = "feature/näive\\x"
        return ProjectFacts(name: project.name, path: project.path, isPrivate: project.isPrivate, commits: commits)
      })
    try store.write(named, durable: false)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasPrefix("day\t2\t2026-11-30\n"))
    #expect(text.contains("\tMerge\tfeature/näive\\\\x\n"))
    #expect(text.contains(" conflict – naïve\t\n"), "a commit without a branch has an empty field")
    #expect(store.read(Self.day) == named)
  }

  /// A record as gitjournal wrote it before branches were named, on this machine or another: it still reads.
  @Test func aRecordOfTheFirstFormatStillReads() throws {
    let scratch = try ScratchDirectory("gitjournal-records")
    let store = DayRecordStore(journalDirectory: scratch.path("journal"), host: "laptop")
    let old = [
      "day\t1\t2026-11-30",
      "project\tnotes app\t/home/ada/notes\t0",
      "commit\t\(String(repeating: "ab", count: 20))\t1796036000\t-90\t0\t3\t120\t8\tAda\tada@example.com\tFix it",
      "end",
    ]
    try FileManager.default.createDirectory(atPath: store.folder, withIntermediateDirectories: true)
    try Data((old.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: store.path(of: Self.day)))
    let facts = try #require(store.read(Self.day))
    let commit = try #require(facts.projects.first?.commits.first)
    #expect(commit.subject == "Fix it")
    #expect(commit.stats == DiffStats(filesChanged: 3, insertions: 120, deletions: 8))
    #expect(commit.branch == nil)
    #expect(store.recorded(Self.day) == facts)
  }
}
