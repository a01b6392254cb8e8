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
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw SystemError("open the lock file", path: path) }
    while flock(descriptor, LOCK_EX) != 0 {
      if errno != EINTR {
        let failure = SystemError("lock", path: path)
        close(descriptor)
        throw failure
      }
    }
    return FileLock(descriptor: descriptor)
  }
}
