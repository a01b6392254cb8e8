#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive lock on a file in the state folder: `journal.lock`, which every journal writer takes for its
/// read-merge-write, and `narrator.lock`, which keeps one narrator talking to the model at a time. It is
/// `flock(2)`: the kernel releases it when the holder exits or is killed, so a crash never leaves a lock
/// that blocks the next commit.
package final class FileLock {
  private let descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  deinit {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }

  /// Blocks until the lock is free. Holders keep it for one file rewrite: milliseconds.
  package static func acquire(at path: String) throws(SystemError) -> FileLock {
    let descriptor = try openFile(path)
    while flock(descriptor, LOCK_EX) != 0 {
      if errno != EINTR {
        let failure = SystemError("lock", path: path)
        close(descriptor)
        throw failure
      }
    }
    return FileLock(descriptor: descriptor)
  }

  /// Waits at most `seconds` for the lock, then throws `Busy`. A holder that keeps it longer is stuck (a process
  /// stopped with Ctrl-Z, a hung network mount): killed, it would have released it; stopped, it never will.
  package static func acquire(at path: String, waitingAtMost seconds: Int) throws -> FileLock {
    let descriptor = try openFile(path)
    let clock = ContinuousClock()
    let start = clock.now
    // Short pauses first: a lock held for one file rewrite is free again within milliseconds.
    var pause = 1
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let failure = errno
      if failure == EINTR { continue }
      guard failure == EWOULDBLOCK else {
        close(descriptor)
        throw SystemError("lock", path: path, errorNumber: failure)
      }
      guard start.duration(to: clock.now) < .seconds(seconds) else {
        close(descriptor)
        throw Busy(path: path, seconds: seconds)
      }
      usleep(useconds_t(pause * 1000))
      pause = min(pause * 2, 25)
    }
    return FileLock(descriptor: descriptor)
  }

  private static func openFile(_ path: String) throws(SystemError) -> Int32 {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw SystemError("open the lock file", path: path) }
    return descriptor
  }

  /// Another process held the lock past the deadline.
  package struct Busy: Error, CustomStringConvertible {
    package let path: String
    package let seconds: Int

    package var description: String {
      "another gitjournal has held the lock \(path) for more than \(seconds) seconds; try again once it has "
        + "finished (one stopped with Ctrl-Z or hung on a network mount keeps it until it is resumed or ended)"
    }
  }
}
