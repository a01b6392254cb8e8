import Foundation

/// Cancels a piece of work once it is under way and measures how long it takes to give up.
enum CancellationProbe {
  /// Starts `work` as a child task, waits until `started` holds, cancels it, and returns what it returned, when
  /// it was cancelled and the seconds from then to its end. Nil when `started` never held (the work is cancelled
  /// anyway).
  static func cancel<T: Sendable>(
    _ work: @escaping @Sendable () async -> T, once started: @Sendable () async -> Bool
  ) async -> (value: T, seconds: Double, cancelledAt: Date)? {
    await withTaskGroup(of: T.self) { group in
      group.addTask { await work() }
      guard await started() else {
        group.cancelAll()
        return nil
      }
      let cancelledAt = Date()
      group.cancelAll()
      guard let value = await group.next() else { return nil }
      return (value, Date().timeIntervalSince(cancelledAt), cancelledAt)
    }
  }
}
