import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Support

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

  /// Enough repositories to be read by several threads (`FactsReader.readingThreads`): every one of them is read,
  /// with its own commits, whether from its stored read or walked, whichever thread takes it; a missing one is
  /// skipped; the one named likely to have moved is read first and its new commit is seen.
  @Test func manyRepositoriesAreEachReadOnce() async throws {
    let count = 2 * FactsReader.repositoriesPerThread + 3
    let owner = try ScratchDirectory("gitjournal-many")
    let dayStart: Int64 = 1_780_012_800  // a UTC midnight
    var entries: [RepositoryEntry] = []
    for index in 0..<count {
      let repository = try TemporaryRepository(named: "r\(index)", in: owner)
      for commit in 0...(index % 3) {
        try repository.commit(message: "r\(index) c\(commit)", date: "\(dayStart + 3_600 + Int64(commit) * 60) +0000")
      }
      entries.append(RepositoryEntry(name: "r\(index)", path: repository.path, isPrivate: false))
    }
    entries.insert(RepositoryEntry(name: "gone", path: owner.path("gone"), isPrivate: false), at: 7)
    let calendar = JournalCalendar(timeZone: .utc)
    var sources = FactsSources(
      repositories: entries, authors: [], includeMerges: false, calendar: calendar, cacheDirectory: owner.path("cache"))
    // As if the repositories were older than the stamps' racy margin, so that the first read is stored and the second
    // taken from it: a quiet repository whose objects are gone can no longer be walked, and is read all the same.
    sources.stampClock = SettledClock.now
    let reader = FactsReader(sources: sources)
    let day = calendar.day(containing: dayStart + 3_600)
    var policy = ReadPolicy(allAuthors: true, reusesWindows: true)

    func expectEveryRepository(extra: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
      let reading = await reader.read(days: [day], policy: policy)
      #expect(reading.skipped.map(\.name) == ["gone"], sourceLocation: sourceLocation)
      #expect(reading.readPaths.count == count, sourceLocation: sourceLocation)
      let projects = Dictionary(uniqueKeysWithValues: (reading.days[day]?.projects ?? []).map { ($0.name, $0) })
      #expect(projects.count == count, sourceLocation: sourceLocation)
      for index in 0..<count {
        let subjects = projects["r\(index)"]?.commits.map(\.subject) ?? []
        var expected = (0...(index % 3)).map { "r\(index) c\($0)" }
        if index == count - 1 && extra > 0 { expected.append("r\(index) late") }
        #expect(subjects == expected, "r\(index)", sourceLocation: sourceLocation)
      }
    }
    await expectEveryRepository(extra: 0)
    try SettledClock.fileClockAfterATick(in: owner.path)
    let objects = entries[3].path + "/.git/objects"
    #expect(rename(objects, objects + ".away") == 0)
    await expectEveryRepository(extra: 0)
    #expect(rename(objects + ".away", objects) == 0)
    let last = try TemporaryRepository(existingAt: entries.last!.path, owner: owner)
    try last.commit(message: "r\(count - 1) late", date: "\(dayStart + 7_200) +0000")
    policy.likelyMoved = [entries.last!.path]
    await expectEveryRepository(extra: 1)
  }

  /// The stored reads are checked on one thread below 50 repositories, then one per processor with 25 each at
  /// least, and never more than eight.
  @Test func readingThreadsFollowTheRepositoriesAndProcessors() {
    #expect(FactsReader.readingThreads(for: 49, processors: { 16 }) == 1)
    #expect(FactsReader.readingThreads(for: 50, processors: { 16 }) == 2)
    #expect(FactsReader.readingThreads(for: 100, processors: { 2 }) == 2)
    #expect(FactsReader.readingThreads(for: 100, processors: { 1 }) == 1)
    #expect(FactsReader.readingThreads(for: 5_000, processors: { 64 }) == 8)
  }
}
