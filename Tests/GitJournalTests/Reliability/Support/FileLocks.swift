import Foundation

/// Whether a `flock(2)` lock is held, and by whom, read from `/proc/locks` (Linux): the crash tests use it to tell
/// a child killed while it held the journal lock from one killed before or after.
enum FileLocks {
  /// Whether process `pid` holds a granted flock on the file at `path` (false where /proc/locks is absent).
  static func isHeld(_ path: String, by pid: pid_t) -> Bool {
    holders(of: path).contains(pid)
  }

  /// Whether anyone holds a flock on `path`: read from /proc/locks where there is one, without touching the lock.
  /// Elsewhere it is tried without blocking and let go at once if free; but a test that takes the lock, even for
  /// a moment, is another holder to the program under test: a narrator starting in that moment would find
  /// `narrator.lock` held, leave its days to a narrator that does not exist, and ask nothing.
  static func isLocked(_ path: String) -> Bool {
    if FileManager.default.isReadableFile(atPath: "/proc/locks") {
      return !holders(of: path).isEmpty
    }
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
    flock(descriptor, LOCK_UN)
    return false
  }

  /// The processes holding a granted flock on `path`; waiters (lines with `->`) are left out.
  static func holders(of path: String) -> [pid_t] {
    var info = stat()
    guard stat(path, &info) == 0, let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else {
      return []
    }
    let inode = String(info.st_ino)
    return table.split(separator: "\n").compactMap { line -> pid_t? in
      let fields = line.split(separator: " ")
      // "1: FLOCK  ADVISORY  WRITE 1234 00:2e:5678 0 EOF"
      guard fields.count >= 6, fields[1] == "FLOCK", fields[5].split(separator: ":").last.map(String.init) == inode
      else { return nil }
      return pid_t(fields[4])
    }
  }
}
