import Foundation
import Testing

@testable import Support

/// `SideThreads`: every part is done once, on a thread of its own but the first, and the results come in order.
@Suite struct SideThreadsTests {
  /// The threads the parts ran on, by part.
  final class Threads: @unchecked Sendable {
    private let lock = NSLock()
    private var byPart: [Int: UInt] = [:]

    func record(_ part: Int) { lock.withLock { byPart[part] = UInt(pthread_self()) } }
    var parts: [Int: UInt] { lock.withLock { byPart } }
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
    let expectedRuns = count < 20 ? 1 : min(ProcessResources.usableProcessorCount, count / 10)
    #expect(runs.parts.count == expectedRuns)
  }
}
