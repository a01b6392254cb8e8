import Foundation

/// A process that holds a `flock(2)` lock and does nothing else, as a gitjournal stopped with Ctrl-Z or hung on a
/// network mount would: `flock(1)` locks a descriptor of the shell, which then becomes `sleep`, so one process
/// holds the lock until it is killed (the kernel then releases it).
final class LockHolder {
  private let child: ChildProcess
  let path: String

  /// Starts the holder and returns once the lock on `path` is taken (the file and its folder are created).
  init(_ path: String, timeout: Double = 10) throws {
    self.path = path
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    child = try ChildProcess(
      "/bin/sh", ["-c", "exec 9>>\"$0\" && flock 9 && exec sleep 300", path],
      environment: ["PATH": "/usr/bin:/bin"], currentDirectory: "/")
    let deadline = Date().addingTimeInterval(timeout)
    while !FileLocks.isLocked(path) {
      guard child.isRunning, Date() < deadline else {
        child.kill()
        throw ScratchError("the lock holder never took \(path) (is flock(1) installed?)")
      }
      usleep(5_000)
    }
  }

  deinit { child.kill() }

  /// Kills the holder; the lock is free once this returns.
  func release() { child.kill() }
}
