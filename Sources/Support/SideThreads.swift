#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A short piece of work cut into parts, each on a thread started for it, the first on the calling thread, all
/// joined before returning. Swift's task groups and Dispatch's pools start their worker threads on first use (a
/// dozen threads here), which costs about what a second core saves on a few milliseconds of work; a bare thread
/// starts in 20 to 100 µs.
package enum SideThreads {
  /// The most threads a piece of work is cut into: work of a few milliseconds gains little from more, each costs
  /// its start, and a container's CPU quota (which `ProcessResources.usableProcessorCount` does not read) may not
  /// give them the processors it lists.
  package static let maximumThreads = 8

  /// `body` of `items` cut into runs, in order, the results joined in order: one run per usable processor (at most
  /// `maximumThreads`), each of at least `perRun` items; with fewer items one run on this thread, and the
  /// processors are not counted.
  package static func map<Item: Sendable, Result: Sendable>(
    _ items: [Item], runsOfAtLeast perRun: Int, _ body: @escaping @Sendable (ArraySlice<Item>) -> [Result]
  ) -> [Result] {
    guard items.count >= 2 * perRun else { return body(items[...]) }
    let runs = min(ProcessResources.usableProcessorCount, items.count / perRun, maximumThreads)
    guard runs > 1 else { return body(items[...]) }
    let size = (items.count + runs - 1) / runs
    return map(parts: runs) { run in
      body(items[min(items.count, run * size)..<min(items.count, (run + 1) * size)])
    }.flatMap { $0 }
  }

  /// `body(part)` for each part of `0..<parts`, in order.
  package static func map<Result: Sendable>(parts: Int, _ body: @escaping @Sendable (Int) -> Result) -> [Result] {
    guard parts > 1 else { return parts == 1 ? [body(0)] : [] }
    // One slot per part, each written by one thread only, and read once every thread is joined.
    let slots = UnsafeMutableBufferPointer<Result?>.allocate(capacity: parts)
    slots.initialize(repeating: nil)
    defer {
      slots.deinitialize()
      slots.deallocate()
    }
    let sendableSlots = SendableSlots(slots)
    run(parts: parts) { part in sendableSlots.slots[part] = body(part) }
    return slots.map { $0! }
  }

  /// `body(index)` for each index of `0..<count`, on up to `threads` threads (this one among them), each taking the
  /// next index not yet taken: a long item keeps one thread while the others go on with the rest. Not generic, so
  /// that a caller pays no generic metadata for it: the hook calls it once.
  package static func forEach(count: Int, threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    guard threads > 1, count > 1 else {
      for index in 0..<count { body(index) }
      return
    }
    let next = NextIndex(count: count)
    run(parts: min(threads, count)) { _ in
      while let index = next.take() { body(index) }
    }
  }

  /// `body(thread)` on `threads` threads at once, this one among them, all joined before returning: for workers that
  /// share their items themselves (`WorkSlots`).
  package static func together(threads: Int, _ body: @Sendable (Int) -> Void) {
    withoutActuallyEscaping(body) { body in run(parts: threads, body) }
  }

  /// `body(part)` for each part of `0..<parts`: part 0 on this thread, each other one on a thread started for it,
  /// or on this one when none could be started; all joined before returning.
  private static func run(parts: Int, _ body: @escaping @Sendable (Int) -> Void) {
    guard parts > 0 else { return }
    var threads: [pthread_t] = []
    for part in 1..<parts {
      let start = ThreadStart { body(part) }
      if let thread = start.startThread() { threads.append(thread) } else { start.run() }
    }
    body(0)
    for thread in threads { pthread_join(thread, nil) }
  }
}

/// The next index of `0..<count` not yet taken, for threads that share the items.
private final class NextIndex: Sendable {
  private let next = Locked(0)
  private let count: Int

  init(count: Int) { self.count = count }

  func take() -> Int? {
    next.withLock { next in
      guard next < count else { return nil }
      defer { next += 1 }
      return next
    }
  }
}

/// The slots' buffer, handed to the threads that fill it (each its own slot).
private struct SendableSlots<Result>: @unchecked Sendable {
  let slots: UnsafeMutableBufferPointer<Result?>
  init(_ slots: UnsafeMutableBufferPointer<Result?>) { self.slots = slots }
}

/// What a started thread runs; not generic, so that the thread's entry point needs no cast to find it.
private final class ThreadStart: Sendable {
  let run: @Sendable () -> Void

  init(_ run: @escaping @Sendable () -> Void) { self.run = run }

  /// A new thread running `run`, or nil when none could be started (`run` has then not run).
  func startThread() -> pthread_t? {
    let argument = Unmanaged.passRetained(self).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    let status = pthread_create(
      &thread, nil,
      { argument in
        // Optional on Linux, not on Darwin.
        let pointer: UnsafeMutableRawPointer? = argument
        Unmanaged<ThreadStart>.fromOpaque(pointer!).takeRetainedValue().run()
        return nil
      }, argument)
    guard status == 0 else {
      Unmanaged<ThreadStart>.fromOpaque(argument).release()
      return nil
    }
    return thread
  }
}

extension SideThreads {
  /// Starts `body` on a thread of its own that nobody joins; false when none could be started (`body` has then not
  /// run).
  package static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
    guard let thread = ThreadStart(body).startThread() else { return false }
    pthread_detach(thread)
    return true
  }
}

/// A value made on a thread of its own while the caller goes on; `value()` waits for it. Where no thread can be
/// started, `value()` makes it.
package final class SideResult<Value: Sendable>: @unchecked Sendable {
  private let condition = Condition()
  private var made: Value?
  private var body: (@Sendable () -> Value)?

  package init(_ body: @escaping @Sendable () -> Value) {
    let isStarted = SideThreads.detach { [self] in
      let value = body()
      condition.lock()
      made = value
      condition.broadcast()
      condition.unlock()
    }
    if !isStarted { self.body = body }
  }

  package func value() -> Value {
    if let body {
      self.body = nil
      made = body()
    }
    condition.lock()
    defer { condition.unlock() }
    while made == nil { condition.wait() }
    return made!
  }

  /// `value()`, waited for `seconds` at most: nil when it was not made by then. The thread making it goes on, and
  /// its value is dropped; a process that gave up on it ends without waiting for it.
  package func value(within seconds: Double) -> Value? {
    if body != nil { return value() }
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let seconds = min(max(seconds, 0), 1e7)
    let whole = Int(seconds.rounded(.down))
    var deadline = now
    deadline.tv_sec += whole
    deadline.tv_nsec += Int((seconds - Double(whole)) * 1e9)
    if deadline.tv_nsec >= 1_000_000_000 {
      deadline.tv_sec += 1
      deadline.tv_nsec -= 1_000_000_000
    }
    condition.lock()
    defer { condition.unlock() }
    while made == nil {
      if !condition.wait(until: deadline) && made == nil { return nil }
    }
    return made
  }
}
