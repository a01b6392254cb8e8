import Foundation
import Testing

@testable import Support

/// `InOrderWork.map`: the items done are always the first ones, in order, on more than one thread.
@Suite struct InOrderWorkTests {
  /// Which threads did some item, and whether an item saw another running at the same time.
  final class Seen: Sendable {
    private struct Items {
      var threads: Set<UInt> = []
      var running = 0
      var overlapped = false
    }
    private let items = Locked(Items())

    func begin() {
      items.withLock { items in
        items.threads.insert(UInt(pthread_self()))
        items.running += 1
        if items.running > 1 { items.overlapped = true }
      }
    }

    func end() { items.withLock { $0.running -= 1 } }

    var threadCount: Int { items.withLock { $0.threads.count } }
    var didOverlap: Bool { items.withLock { $0.overlapped } }
  }

  @Test func everyItemIsDoneInOrderOnSeveralThreads() {
    let seen = Seen()
    let started = Date()
    let results = InOrderWork.map(count: 400, threads: 4, while: { true }) { index in
      seen.begin()
      defer { seen.end() }
      // The first item waits (at most 10 s) until another thread has taken one.
      while index == 0 && !seen.didOverlap && Date().timeIntervalSince(started) < 10 { usleep(1_000) }
      return index * 3
    }
    #expect(results == (0..<400).map { $0 * 3 })
    #expect(seen.didOverlap, "no two items ran at the same time")
    #expect(seen.threadCount > 1)
  }

  @Test func stoppingLeavesTheFirstItemsDone() {
    let deadline = Date() + 0.05
    let results = InOrderWork.map(count: 1_000_000, threads: 3, while: { Date() < deadline }) { index in
      usleep(200)
      return index
    }
    #expect(!results.isEmpty && results.count < 1_000_000)
    #expect(results == Array(0..<results.count))
  }

  @Test func theFirstItemIsDoneEvenWhenToldToStop() {
    #expect(InOrderWork.map(count: 5, threads: 2, while: { false }) { $0 + 1 } == [1])
    #expect(InOrderWork.map(count: 5, threads: 1, while: { false }) { $0 + 1 } == [1])
    #expect(InOrderWork.map(count: 0, threads: 2, while: { true }) { $0 } == [])
    #expect(InOrderWork.map(count: 3, threads: 1, while: { true }) { $0 } == [0, 1, 2])
  }

  /// The diff workers' use: runs of several items, and a failure that stops the taking and is what the results
  /// throw.
  @Test func runsAreTakenInOrderAndAFailureStopsThem() {
    struct Failed: Error, Equatable { let index: Int }
    let slots = WorkSlots<Int, Failed>(count: 10)
    #expect(slots.nextRun(length: 4) == 0..<4)
    #expect(slots.nextRun(length: 4) == 4..<8)
    #expect(slots.nextRun(length: 4) == 8..<10)
    #expect(slots.nextRun(length: 4) == nil)
    for index in 0..<10 { slots.set(index, index * 2) }
    #expect((try? slots.results()) == (0..<10).map { $0 * 2 })

    let failing = WorkSlots<Int, Failed>(count: 10)
    #expect(failing.nextRun(length: 3) == 0..<3)
    failing.fail(Failed(index: 1))
    failing.fail(Failed(index: 2))
    #expect(failing.nextRun(length: 3) == nil)
    #expect(throws: Failed(index: 1)) { try failing.results() }
  }
}
