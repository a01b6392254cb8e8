/// State that several threads share, reachable only while holding its lock: the shape of the standard library's
/// `Synchronization.Mutex`, which needs macOS 15 where gitjournal builds for older ones. A type that keeps its
/// shared state in a `Locked` is `Sendable` as it is; the unchecked promise is made here, once.
package final class Locked<State> {
  // Visible to inlined code so that `withLock` is specialized where it is called: the pack reader's delta bases
  // are looked up through it for every object a rebuild reads.
  @usableFromInline let lock = Lock()
  @usableFromInline var state: State

  package init(_ state: State) { self.state = state }

  /// `body`'s result, run with the state while holding the lock. `body` must not let a reference into the state
  /// escape, nor take this lock again.
  @inlinable
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(&state) }
  }
}

// Every access to `state` holds `lock`.
extension Locked: @unchecked Sendable where State: Sendable {}
