import Foundation
import Testing

@testable import Support

/// `SideThreads`: every part is done once, on a thread of its own but the first, and the results come in order.
@Suite struct SideThreadsTests {
  /// The threads the parts ran on, by part.
  final class Threads: Sendable {
    private let byPart = Locked<[Int: UInt]>([:])

    func record(_ part: Int) { byPart.withLock { $0[part] = UInt(pthread_self()) } }
    var parts: [Int: UInt] { byPart.withLock { $0 } }
  }

  @Test(arguments: [0, 1, 2, 5])
  func eachPartRunsOnceOnAThreadOfItsOwn(parts: Int) {
    let threads = Threads()
    let results = SideThreads.map(parts: parts) { part in
      threads.record(part)
      return part * part
    }
    #expect(results == (0..<parts).map { $0 * $0 })
    let seen = threads.parts
    #expect(seen.keys.sorted() == Array(0..<parts))
    if parts > 0 { #expect(seen[0] == UInt(pthread_self()), "the first part runs on the calling thread") }
    #expect(Set(seen.values).count == parts, "two parts shared a thread")
  }

  /// A list is cut into runs of at least the given length, one per processor at most, and joined back in order.
  @Test(arguments: [0, 1, 9, 10, 19, 20, 21, 333])
  func runsJoinInOrder(count: Int) {
    let items = Array(0..<count)
    let runs = Threads()
    let results = SideThreads.map(items, runsOfAtLeast: 10) { part in
      runs.record(part.first ?? -1)
      return part.map { "item \($0)" }
    }
    #expect(results == items.map { "item \($0)" })
    let expectedRuns =
      count < 20 ? 1 : min(ProcessResources.usableProcessorCount, count / 10, SideThreads.maximumThreads)
    #expect(runs.parts.count == expectedRuns)
  }

  /// Indices handed out in turn: every one done once, by as many threads as asked (the work is long enough for the
  /// second thread to start before the first is done), the caller among them.
  @Test(arguments: [0, 1, 2, 40])
  func forEachDoesEveryIndexOnce(count: Int) {
    let done = Threads()
    SideThreads.forEach(count: count, threads: 2) { index in
      done.record(index)
      usleep(1_000)
    }
    #expect(done.parts.keys.sorted() == Array(0..<count))
    if count >= 40 { #expect(Set(done.parts.values).count == 2, "one thread did everything") }
    if count > 0 { #expect(done.parts.values.contains(UInt(pthread_self())), "the caller did none") }
  }

  /// A side result is made on another thread, and waited for.
  @Test func aSideResultIsMadeBesideTheCaller() {
    let started = Date()
    let result = SideResult { () -> UInt in
      usleep(50_000)
      return UInt(pthread_self())
    }
    let thread = result.value()
    #expect(Date().timeIntervalSince(started) >= 0.05)
    #expect(thread != UInt(pthread_self()), "made on the caller's thread")
  }
}
