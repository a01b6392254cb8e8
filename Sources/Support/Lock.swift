#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutual-exclusion lock over a pthread mutex, for state that several threads share: corelibs Foundation's
/// `NSLock` without Foundation.
package final class Lock: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  package init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// `body`'s result, run while holding the lock.
  @inlinable
  package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

/// A lock and a condition that threads holding it wait on, over a pthread mutex and condition variable.
package final class Condition: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  package init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  package func lock() { pthread_mutex_lock(mutex) }
  package func unlock() { pthread_mutex_unlock(mutex) }
  /// Waits to be signalled: the lock is given up meanwhile and held again on return.
  package func wait() { pthread_cond_wait(condition, mutex) }
  /// `wait()` until the realtime clock reads `deadline` at most; false when it passed unsignalled.
  package func wait(until deadline: timespec) -> Bool {
    var deadline = deadline
    return pthread_cond_timedwait(condition, mutex, &deadline) == 0
  }
  package func signal() { pthread_cond_signal(condition) }
  package func broadcast() { pthread_cond_broadcast(condition) }
}
