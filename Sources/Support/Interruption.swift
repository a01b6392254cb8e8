#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-C during a long command: the first one asks the command to stop after the file it is writing (every
/// file stays complete); a second one ends the process at once.
package enum Interruption {
  nonisolated(unsafe) private static var requested: sig_atomic_t = 0

  package static var isRequested: Bool { requested != 0 }

  package static func install() {
    signal(SIGINT) { _ in
      Interruption.requested = 1
      signal(SIGINT, SIG_DFL)
    }
  }

  /// Runs `work`, cancelling it as soon as Ctrl-C is pressed (checked every tenth of a second), so a
  /// request to a slow model server does not hold the command for its whole deadline.
  package static func cancellingOnRequest<T: Sendable>(_ work: @escaping @Sendable () async -> T?) async -> T? {
    await withTaskGroup(of: T?.self) { group in
      group.addTask { await work() }
      group.addTask {
        while !isRequested && !Task.isCancelled { try? await Task.sleep(nanoseconds: 100_000_000) }
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
  }
}
