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
    let slots = WorkSlots<Result, Never>(count: count)
    SideThreads.together(threads: min(threads, count)) { _ in
      while let run = slots.nextRun(while: shouldContinue) { slots.set(run.lowerBound, body(run.lowerBound)) }
    }
    return slots.results()
  }
}

/// The results of a row of items that a few threads work on, each taking the next run of items in order, until
/// all are taken, one failed, or the taker says stop. `@unchecked Sendable`: every access goes through `lock`. Not a
/// `Locked`: this type is generic, and a `Locked` of its generic state costs a run-time metadata lookup at every
/// call (a second rebuild takes a run per day).
package final class WorkSlots<Result: Sendable, Failure: Error>: @unchecked Sendable {
  private let lock = Lock()
  private var slots: [Result?]
  private var next = 0
  private var isStopped = false
  private var failure: Failure?

  package init(count: Int) { slots = Array(repeating: nil, count: count) }

  /// The next `length` items to do (fewer at the end); nil once all are taken, one failed, or `shouldContinue`
  /// said no (asked for every run but the first).
  package func nextRun(length: Int = 1, while shouldContinue: () -> Bool = { true }) -> Range<Int>? {
    lock.withLock {
      guard !isStopped, failure == nil, next < slots.count else { return nil }
      if next > 0 && !shouldContinue() {
        isStopped = true
        return nil
      }
      let run = next..<min(next + max(1, length), slots.count)
      next = run.upperBound
      return run
    }
  }

  package func set(_ index: Int, _ result: Result) { lock.withLock { slots[index] = result } }

  /// Stops the taking; the first failure is the one `results()` throws.
  package func fail(_ error: Failure) { lock.withLock { failure = failure ?? error } }

  /// The results of the items taken, in order; call once every thread is done.
  package func results() throws(Failure) -> [Result] {
    let (taken, failure) = lock.withLock { (slots[..<next], self.failure) }
    if let failure { throw failure }
    return taken.map { $0! }
  }
}
