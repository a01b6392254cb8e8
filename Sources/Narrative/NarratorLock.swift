import Facts
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One narrator at a time, and none waiting in line: `narrator.lock` is taken without blocking. A narrator that
/// finds it held writes its days to `narrator.pending` and exits at once; the holder narrates those days too
/// before it lets go, so the newest facts always get their turn.
///
/// Why no day is lost: a newcomer records its days before it tries the lock, and the holder looks for recorded
/// days after it has released the lock, taking it back if there are any. Either the newcomer's attempt comes
/// after the release (and it may take the lock itself), or its days were recorded before the release and the
/// holder sees them. The lock is `flock(2)`, released by the kernel when its holder dies.
package final class NarratorLock {
  private var descriptor: Int32
  private let lockPath: String
  private let pendingPath: String

  private init(descriptor: Int32, lockPath: String, pendingPath: String) {
    self.descriptor = descriptor
    self.lockPath = lockPath
    self.pendingPath = pendingPath
  }

  deinit {
    if descriptor >= 0 {
      flock(descriptor, LOCK_UN)
      close(descriptor)
    }
  }

  /// Records `days` as wanted, then takes the lock if it is free; nil when another narrator holds it (it will
  /// narrate `days` before it exits).
  package static func claim(days: [Day], stateDirectory: String) throws(SystemError) -> NarratorLock? {
    let lockPath = stateDirectory + "/narrator.lock"
    let pendingPath = stateDirectory + "/narrator.pending"
    try append(days, to: pendingPath)
    guard let descriptor = try tryLock(lockPath) else { return nil }
    return NarratorLock(descriptor: descriptor, lockPath: lockPath, pendingPath: pendingPath)
  }

  /// The days recorded since the last call (this narrator's own included), oldest first, and forgets them.
  package func takeRequests() -> [Day] {
    let descriptor = open(pendingPath, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    guard Self.lockPending(descriptor) else { return [] }
    defer { flock(descriptor, LOCK_UN) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    // A day is 11 bytes: this many is years of commits; more means the file is not ours to trust.
    while bytes.count < 1 << 20 {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[0..<count]
    }
    _ = ftruncate(descriptor, 0)
    let days = String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { Day(iso: String($0)) }
    return Set(days).sorted()
  }

  /// How many bytes of requests are waiting: it grows with every commit that asks while this narrator works.
  package var pendingBytes: Int64 {
    var info = stat()
    return stat(pendingPath, &info) == 0 ? Int64(info.st_size) : 0
  }

  /// Whether days were recorded since the last `takeRequests`: a commit came while this narrator worked.
  package var hasRequests: Bool {
    var info = stat()
    return stat(pendingPath, &info) == 0 && info.st_size > 0
  }

  /// Lets go of the lock. True when days were recorded meanwhile and the lock could be taken back: narrate
  /// them (`takeRequests`) and call this again. False when there is nothing left, or another narrator took over.
  package func releaseUnlessRequested() -> Bool {
    guard descriptor >= 0 else { return false }
    flock(descriptor, LOCK_UN)
    close(descriptor)
    descriptor = -1
    var info = stat()
    guard stat(pendingPath, &info) == 0, info.st_size > 0, let again = try? Self.tryLock(lockPath) else {
      return false
    }
    descriptor = again
    return true
  }

  /// The lock's descriptor, or nil when another process holds it.
  private static func tryLock(_ path: String) throws(SystemError) -> Int32? {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw SystemError("open the lock file", path: path) }
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      let failure = SystemError("lock", path: path)
      close(descriptor)
      if failure.errorNumber == EWOULDBLOCK { return nil }
      throw failure
    }
    return descriptor
  }

  /// Appends one line per day in a single write, under the pending file's own lock, so a narrator taking the
  /// requests never reads half a line or truncates one being written.
  private static func append(_ days: [Day], to path: String) throws(SystemError) {
    guard !days.isEmpty else { return }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw SystemError("open", path: path) }
    defer { close(descriptor) }
    guard lockPending(descriptor) else { throw SystemError("lock", path: path) }
    defer { flock(descriptor, LOCK_UN) }
    let text = days.map { "\($0)\n" }.joined()
    let written = text.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count - 1) }
    guard written == text.utf8.count else { throw SystemError("write", path: path) }
  }

  /// The pending file's lock is held for one read or one write: microseconds.
  private static func lockPending(_ descriptor: Int32) -> Bool {
    while flock(descriptor, LOCK_EX) != 0 {
      if errno != EINTR { return false }
    }
    return true
  }
}
