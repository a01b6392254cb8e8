import Foundation
import Testing

@testable import Facts
@testable import GitReader

/// How `FactsReader` shares commits out between repositories that hold the same history.
@Suite struct FactsReaderTests {
  static func record(_ digit: String) -> CommitRecord {
    CommitRecord(
      id: .repeating(digit), authorName: "Ada", authorEmail: "ada@example.com", authoredAt: 1_773_133_200,
      authorOffsetMinutes: 0, subject: "Commit \(digit)", isMerge: false, stats: DiffStats(filesChanged: 1))
  }

  static func ids(_ kept: [[CommitRecord]]) -> [[String]] { kept.map { $0.map { $0.id.prefix(1) } } }

  /// A commit goes to the first working repository that has it, in config order; a bare one keeps only what
  /// no working repository has; a repository that could not be read (nil) keeps nothing and takes nothing.
  @Test func eachCommitIdIsKeptByOneRepository() {
    let scans: [ScannedRepository?] = [
      ScannedRepository(isBare: true, commits: ["a", "b", "c", "d"].map(Self.record)),
      nil,
      ScannedRepository(isBare: false, commits: ["a", "b"].map(Self.record)),
      ScannedRepository(isBare: false, commits: ["b", "c", "e"].map(Self.record)),
      ScannedRepository(isBare: true, commits: ["d", "f"].map(Self.record)),
    ]
    #expect(Self.ids(FactsReader.countingEachCommitOnce(scans)) == [["d"], [], ["a", "b"], ["c", "e"], ["f"]])
  }

  @Test func repositoriesWithoutSharedCommitsKeepEverything() {
    let scans: [ScannedRepository?] = [
      ScannedRepository(isBare: false, commits: ["a", "b"].map(Self.record)),
      ScannedRepository(isBare: true, commits: ["c"].map(Self.record)),
      ScannedRepository(isBare: false, commits: []),
    ]
    #expect(Self.ids(FactsReader.countingEachCommitOnce(scans)) == [["a", "b"], ["c"], []])
  }
}
