import Foundation

/// Work on a row of items spread over a few threads, stopping early when told: the items are taken in order, one at a
/// time, so those done are always the first ones however the threads interleave. A rebuild writes the days of a run
/// this way, until its turn holding the journal lock is over.
package enum InOrderWork {
  /// The results of `body` for the first items of `0..<count`, in order: item 0 always, each later one while
  /// `shouldContinue()` holds when a thread comes to take it. On up to `threads` threads, this one among them.
  package static func map<Result: Sendable>(
    count: Int, threads: Int, while shouldContinue: @Sendable () -> Bool, _ body: @Sendable (Int) -> Result
  ) -> [Result] {
    guard count > 0 else { return [] }
    guard threads > 1, count > 1 else {
      var results = [body(0)]
      while results.count < count && shouldContinue() { results.append(body(results.count)) }
      return results
    }
    let slots = Slots<Result>(count: count)
    DispatchQueue.concurrentPerform(iterations: min(threads, count)) { _ in
      while let index = slots.take(while: shouldContinue) { slots.set(index, body(index)) }
    }
    return slots.taken()
  }
}

/// The results of `InOrderWork.map` as its threads fill them. `@unchecked Sendable`: every access goes through `lock`.
private final class Slots<Result: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [Result?]
  private var next = 0
  private var isStopped = false

  init(count: Int) { results = Array(repeating: nil, count: count) }

  /// The next item to do, nil once all are taken or `shouldContinue` said no (asked for every item but the first).
  func take(while shouldContinue: () -> Bool) -> Int? {
    lock.withLock {
      guard !isStopped, next < results.count else { return nil }
      if next > 0 && !shouldContinue() {
        isStopped = true
        return nil
      }
      next += 1
      return next - 1
    }
  }

  func set(_ index: Int, _ result: Result) { lock.withLock { results[index] = result } }

  /// The results of the items taken, in order; call once every thread is done.
  func taken() -> [Result] {
    lock.withLock { results[..<next].map { $0! } }
  }
}
