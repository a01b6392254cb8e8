import Foundation

/// A small tmpfs mounted on a test's folder, to fill the disk for real. Mounting needs root (or
/// CAP_SYS_ADMIN); where it is not permitted the tests that need one are skipped, and say why.
final class TmpfsMount {
  let path: String

  /// Mounts a tmpfs of `kilobytes` on `path` (which must exist).
  init(at path: String, kilobytes: Int) throws {
    self.path = path
    let result = try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0755", "tmpfs", path])
    guard result.status == 0 else { throw ScratchError("cannot mount a tmpfs on \(path): \(result.standardError)") }
  }

  deinit { unmount() }

  func unmount() {
    guard Self.isMountPoint(path) else { return }
    if (try? Self.run("/bin/umount", [path]))?.status != 0 {
      _ = try? Self.run("/bin/umount", ["-l", path])
    }
  }

  /// Fills the file system with one file until a write fails with ENOSPC; returns the bytes written.
  @discardableResult
  func fill(file name: String) throws -> Int {
    let descriptor = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw ScratchError("cannot create \(name) on the tmpfs") }
    defer { close(descriptor) }
    let chunk = [UInt8](repeating: 0x2E, count: 1024)
    var total = 0
    while true {
      let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
      if written <= 0 {
        guard errno == ENOSPC else {
          throw ScratchError("filling the tmpfs failed: \(String(cString: strerror(errno)))")
        }
        return total
      }
      total += written
    }
  }

  /// Whether a tmpfs can be mounted here, with the reason when it cannot: tried once, on a throwaway folder.
  static let availability: (isAvailable: Bool, reason: String) = {
    guard let scratch = try? ScratchDirectory("gitjournal-tmpfs-probe") else { return (false, "no temporary folder") }
    do {
      let mount = try TmpfsMount(at: scratch.path, kilobytes: 64)
      mount.unmount()
      return (true, "")
    } catch {
      return (false, "mounting a tmpfs is not permitted here (\(error)); run as root to test a full disk")
    }
  }()

  static func isMountPoint(_ path: String) -> Bool {
    guard let table = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return false }
    // /proc/self/mounts escapes spaces as \040; the tests' paths have none.
    return table.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first.map(String.init) == path }
  }

  private static func run(_ executable: String, _ arguments: [String]) throws -> ProcessResult {
    try Subprocess.run(
      executable, arguments, environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], currentDirectory: "/")
  }
}
