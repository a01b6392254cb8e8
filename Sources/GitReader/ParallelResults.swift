import Foundation

/// Slots that parallel workers fill, each index by one worker. `@unchecked Sendable`: every access goes
/// through `lock`.
final class ParallelResults: @unchecked Sendable {
  private let lock = NSLock()
  private var slots: [DiffStats]
  private var failure: GitError?

  private var next = 0

  init(count: Int) { slots = Array(repeating: .zero, count: count) }

  /// The next indexes to compute, nil when all are taken or a worker failed.
  func nextRun(length: Int) -> Range<Int>? {
    lock.withLock {
      guard failure == nil, next < slots.count else { return nil }
      let run = next..<min(next + length, slots.count)
      next = run.upperBound
      return run
    }
  }

  func set(_ index: Int, _ stats: DiffStats) { lock.withLock { slots[index] = stats } }

  func fail(_ error: GitError) { lock.withLock { failure = failure ?? error } }

  func values() throws(GitError) -> [DiffStats] {
    lock.lock()
    defer { lock.unlock() }
    if let failure { throw failure }
    return slots
  }
}
