import Foundation
import Testing

@testable import Facts
@testable import GitReader

/// A day read again keeps the branch names its record holds (`DayFacts.keeping`).
@Suite struct RecordedBranchTests {
  static let day = Day(year: 2026, month: 11, day: 30)

  static func commit(_ digit: String, at time: Int64, branch: String? = nil) -> CommitRecord {
    CommitRecord(
      id: .repeating(digit), authorName: "Ada", authorEmail: "ada@example.com", authoredAt: time,
      authorOffsetMinutes: 0, subject: "Commit \(digit)", isMerge: false, stats: .zero, branch: branch)
  }

  static func facts(_ projects: [(path: String, commits: [CommitRecord])]) -> DayFacts {
    DayFacts(
      day: day,
      projects: projects.map { ProjectFacts(name: $0.path, path: $0.path, isPrivate: false, commits: $0.commits) })
  }

  @Test func recordedNamesWinAndNewCommitsKeepTheirOwn() {
    let recorded = Self.facts([
      ("/app", [Self.commit("a", at: 100, branch: "topic"), Self.commit("b", at: 200, branch: "old")]),
      ("/gone", [Self.commit("e", at: 150, branch: "moved")]),
    ])
    let read = Self.facts([
      (
        "/app",
        [
          Self.commit("a", at: 100), Self.commit("b", at: 200, branch: "renamed"), Self.commit("c", at: 250),
          Self.commit("d", at: 300, branch: "fresh"),
        ]
      ),
      // A commit now read from another repository than the one that recorded it, which is not read now.
      ("/clone", [Self.commit("e", at: 150)]),
    ])
    let kept = read.keeping(recorded, readPaths: ["/app", "/clone"]).facts
    let branches = Dictionary(
      uniqueKeysWithValues: kept.projects.flatMap(\.commits).map { ($0.id, $0.branch) })
    #expect(
      branches == [
        .repeating("a"): "topic", .repeating("b"): "old", .repeating("c"): nil, .repeating("d"): "fresh",
        .repeating("e"): "moved",
      ])
    // Nothing recorded with a branch: the facts as read.
    let plain = Self.facts([("/app", [Self.commit("a", at: 100)])])
    #expect(read.keeping(plain, readPaths: ["/app", "/clone"]).facts == read)
  }
}
