import Foundation
import Testing

@testable import GitReader
@testable import Support

/// A repository's read has bounds of its own (issue 43): a damaged repository can keep libgit2 busy without end or
/// make it allocate without end, and one such repository must not keep the hook or a rebuild from the others.
@Suite struct ReadBoundsTests {
  /// A wait for a value made on another thread ends at its bound, whether or not the value came.
  @Test func aSideResultIsWaitedForNoLongerThanItsBound() {
    let gate = Condition()
    let opened = SendableFlag()
    let result = SideResult { () -> Int in
      gate.lock()
      while !opened.value { gate.wait() }
      gate.unlock()
      return 7
    }
    #expect(result.value(within: 0.05) == nil)
    gate.lock()
    opened.value = true
    gate.broadcast()
    gate.unlock()
    #expect(result.value(within: 60) == 7)
  }

  /// A walk past its time limit is given up: the repository is unreadable, with a line that says why, and the same
  /// walk within the usual limit reads every commit. A hook's short span has no limit of its own (no thread).
  @Test func aWalkPastItsTimeLimitIsGivenUp() throws {
    let repository = try TemporaryRepository()
    for index in 0..<40 {
      _ = try repository.commit(
        file: "file-\(index).txt", content: "line \(index)\n", message: "Commit \(index)", date: "2026-03-10T09:00:00Z")
    }
    var scan = RepositoryScan(
      path: repository.path, configuredAuthors: [TemporaryRepository.email], allAuthors: false, includeMerges: false,
      cacheDirectory: nil, reusesWindows: false)
    #expect(scan.timeLimit == RepositoryScan.timeLimit)
    // A hook's short span is read on the hook's own thread: its commit starts no thread.
    scan.reusesWindows = true
    #expect(
      RepositoryScan(
        path: repository.path, configuredAuthors: [], allAuthors: false, includeMerges: false, cacheDirectory: nil,
        reusesWindows: true
      ).timeLimit == nil)
    scan.reusesWindows = false
    scan.timeLimit = 0
    do {
      _ = try scan.commits(authoredFrom: nil, to: nil)
      Issue.record("a walk of no time at all was not given up")
    } catch {
      #expect(error.description.contains("took more than 0 s"), "\(error)")
    }
    scan.timeLimit = RepositoryScan.timeLimit
    #expect(try scan.commits(authoredFrom: nil, to: nil).commits.count == 40)
  }

  /// An index whose offset for a blob lies beyond its pack (libgit2's read of such an object once died of SIGBUS):
  /// that repository is skipped with one line, the other one journaled, and the rebuild ends with its status.
  @Test func anObjectThePackReaderFindsDamagedSkipsItsRepository() throws {
    let sandbox = try JournalSandbox()
    let broken = try sandbox.makeRepository("broken")
    let healthy = try sandbox.makeRepository("healthy")
    try sandbox.register(broken)
    try sandbox.register(healthy)
    _ = try broken.commit(file: "a.txt", content: "first\n", message: "First", date: "2026-03-10T09:00:00Z")
    _ = try broken.commit(file: "a.txt", content: "second\n", message: "Second", date: "2026-03-10T10:00:00Z")
    _ = try healthy.commit(file: "b.txt", content: "b\n", message: "Healthy work", date: "2026-03-10T09:30:00Z")
    _ = try broken.git("repack", "-a", "-d", "-q")
    let blob = try #require(
      ObjectID(hex: try broken.git("rev-parse", "HEAD:a.txt").trimmingCharacters(in: .whitespacesAndNewlines)))
    let folder = broken.path + "/.git/objects/pack"
    let name = try #require(FolderListing.names(in: folder, withPrefix: "pack-").first { $0.hasSuffix(".idx") })
    var index = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
    let count = index[(8 + 255 * 4)..<(8 + 256 * 4)].reduce(0) { $0 << 8 | Int($1) }
    let ids = 8 + 256 * 4
    let position = try #require(
      (0..<count).first { entry in
        blob.withBytes { Array($0) } == Array(index[(ids + 20 * entry)..<(ids + 20 * entry + 20)])
      })
    let offset = ids + 24 * count + 4 * position
    index.replaceSubrange(offset..<(offset + 4), with: [0, 0x10, 0, 0])
    chmod(folder + "/" + name, 0o644)
    try Data(index).write(to: URL(fileURLWithPath: folder + "/" + name))

    let result = try sandbox.runBinary("rebuild", "2026-03-10", "--no-narrative")
    #expect(result.status == 2, "\(result)")
    let warnings = result.standardError.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
    // The reader reports the damage it finds; where libgit2 meets the object first (its own walk), it fails with its
    // own words. Either way one line names the repository, and no signal ends the process.
    #expect(warnings.count == 1 && warnings[0].contains(broken.path), "\(result.standardError)")
    #expect(sandbox.journalFile("2026-03-10")?.contains("Healthy work") == true)
  }

  /// A hook or a rebuild bounds its data memory; a lower bound already set (`ulimit -d`) is kept.
  @Test func theMemoryBoundIsHalfTheMachineAtMostFourGibibytes() {
    #expect(MemoryBound.bytes >= 512 << 20 && MemoryBound.bytes <= 4 << 30)
  }
}

/// A flag shared between the test's threads, read and set under the test's own condition's lock.
private final class SendableFlag: @unchecked Sendable {
  var value = false
}
