import Foundation

/// A task executor with a thread of its own, for the tests of deadlines.
///
/// Swift's cooperative pool has one thread per core, and tests running in parallel block them (waiting for a
/// `git` child, for instance): an `await` can then resume seconds late, past a deadline the code under test
/// would have kept. Work run with `DedicatedThread.run` (the narrator actor and the HTTP client included, since
/// default actors follow the task's executor preference) is scheduled on this thread only.
final class DedicatedThread: TaskExecutor, @unchecked Sendable {
  // `@unchecked Sendable`: `jobs` and `isStopped` are only touched while holding `condition`.
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var isStopped = false

  private init() {
    let thread = Thread { [self] in runJobs() }
    thread.name = "DedicatedThread"
    thread.start()
  }

  /// Runs `body` (and every child task it starts) on a new thread, which ends with it.
  static func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
    let executor = DedicatedThread()
    defer { executor.stop() }
    return try await withTaskExecutorPreference(executor, operation: body)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let accepted = condition.withLock {
      guard !isStopped else { return false }
      jobs.append(job)
      condition.signal()
      return true
    }
    // A task that outlived `run` (an unstructured one) still finishes, on an ordinary thread.
    if !accepted { DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) } }
  }

  private func stop() {
    condition.withLock {
      isStopped = true
      condition.signal()
    }
  }

  private func runJobs() {
    while true {
      condition.lock()
      while jobs.isEmpty && !isStopped { condition.wait() }
      if jobs.isEmpty && isStopped {
        condition.unlock()
        return
      }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
