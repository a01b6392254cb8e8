import Foundation

/// The detached `gitjournal narrate` processes a test's hooks started. The hook does not report their ids
/// (they are in their own session, children of no one), so they are found in /proc by their command line and
/// the HOME of the test's world, then awaited or killed by pid: no narrator outlives its test.
enum NarratorProcesses {
  /// Whether processes can be seen at all (Linux's /proc).
  static var canSeeProcesses: Bool { FileManager.default.fileExists(atPath: "/proc/self/cmdline") }

  /// Ids of the live narrators whose HOME is `home`.
  static func running(home: String) -> [pid_t] {
    #if os(Linux)
      guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
      return entries.compactMap { pid_t($0) }.filter { pid in
        let arguments = fields(of: "/proc/\(pid)/cmdline")
        guard arguments.count >= 2, arguments[0].hasSuffix("gitjournal"), arguments[1] == "narrate" else {
          return false
        }
        return fields(of: "/proc/\(pid)/environ").contains("HOME=\(home)") && !isZombie(pid)
      }
    #else
      return []
    #endif
  }

  /// Waits until no narrator of `home` runs; false when some still run after `timeout` seconds. `ignoringLock`:
  /// when the test itself holds `narrator.lock`.
  static func waitUntilNoneRun(home: String, timeout: Double, ignoringLock: Bool = false) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if running(home: home).isEmpty && (ignoringLock || !isLockHeld(home: home)) { return true }
      try? await Task.sleep(nanoseconds: 50_000_000)
    }
    return running(home: home).isEmpty
  }

  /// Kills every narrator of `home` that still runs.
  static func killAll(home: String) {
    for pid in running(home: home) { _ = kill(pid, SIGKILL) }
  }

  /// Whether a narrator holds `narrator.lock` (the only way to see one where /proc does not exist).
  static func isLockHeld(home: String) -> Bool {
    FileLocks.isLocked(home + "/.local/state/gitjournal/narrator.lock")
  }

  /// The NUL-separated fields of a /proc file.
  private static func fields(of path: String) -> [String] {
    contents(of: path).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
  }

  /// A /proc file's bytes: its size reads as 0, so it is read to the end.
  private static func contents(of path: String) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
      guard count > 0 else { break }
      bytes += buffer[0..<count]
    }
    return bytes
  }

  /// A zombie has exited; only its parent's wait is missing (init reaps detached narrators).
  private static func isZombie(_ pid: pid_t) -> Bool {
    let stat = String(decoding: contents(of: "/proc/\(pid)/stat"), as: UTF8.self)
    guard let end = stat.lastIndex(of: ")") else { return true }
    return stat[end...].dropFirst().trimmingCharacters(in: .whitespaces).hasPrefix("Z")
  }
}
