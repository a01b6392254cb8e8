import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file writes that readers see as either the old or the new file, never a mix: a temporary file in
/// the same folder, fsync, rename over the target, fsync of the folder.
enum AtomicFile {
  static let temporaryMarker = ".gitjournal-tmp-"

  /// Writes `text` to `path`. A symlinked file is written through to its target; the file gets `mode`, or
  /// keeps its permissions when it exists (0644 for a new file). `durable` false skips the fsyncs, for caches:
  /// the rename still keeps readers from seeing half a file, but a crash may leave the file empty.
  static func write(
    _ text: String, to path: String, mode requestedMode: mode_t? = nil, durable: Bool = true
  ) throws(SystemError) {
    let target = resolveSymlinks(path)
    let folder = (target as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    let temporary = folder + "/." + name + temporaryMarker + String(getpid())

    var mode: mode_t = 0o644
    var info = stat()
    if stat(target, &info) == 0 { mode = info.st_mode & 0o7777 }
    if let requestedMode { mode = requestedMode }

    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    // Errors name the folder or the file the user knows, never the temporary file.
    guard descriptor >= 0 else { throw SystemError("create a file in", path: folder) }
    var failure: SystemError?
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count && failure == nil {
      let written = bytes.withUnsafeMutableBytes {
        systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0 {
        if errno != EINTR { failure = SystemError("write", path: target) }
      } else {
        offset += written
      }
    }
    // open() applies the umask; the mode asked for is the mode wanted.
    if failure == nil && fchmod(descriptor, mode) != 0 { failure = SystemError("set permissions of", path: target) }
    if durable && failure == nil && fsync(descriptor) != 0 { failure = SystemError("sync", path: target) }
    if close(descriptor) != 0 && failure == nil { failure = SystemError("close", path: target) }
    if failure == nil && rename(temporary, target) != 0 { failure = SystemError("replace", path: target) }
    if let failure {
      unlink(temporary)
      throw failure
    }
    if durable { syncFolder(folder) }
  }

  /// Removes temporary files a killed writer left beside `path`. Call only while holding the journal lock,
  /// when no other writer can be using them.
  static func removeLeftovers(besides path: String) {
    let target = resolveSymlinks(path)
    let folder = (target as NSString).deletingLastPathComponent
    let prefix = "." + (target as NSString).lastPathComponent + temporaryMarker
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    for name in names where name.hasPrefix(prefix) {
      unlink(folder + "/" + name)
    }
  }

  /// Reads a file as UTF-8 (invalid bytes replaced), or nil when it does not exist.
  static func read(_ path: String) throws(SystemError) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      if errno == ENOENT || access(path, F_OK) != 0 { return nil }
      throw SystemError("read", path: path)
    }
    defer { try? handle.close() }
    do {
      let data = try handle.readToEnd() ?? Data()
      return String(decoding: data, as: UTF8.self)
    } catch {
      throw SystemError("read", path: path, errorNumber: EIO)
    }
  }

  private static func resolveSymlinks(_ path: String) -> String {
    var resolved = path
    for _ in 0..<32 {
      guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: resolved) else { break }
      resolved =
        destination.hasPrefix("/")
        ? destination
        : ((resolved as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
    }
    return resolved
  }

  private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(descriptor, buffer, count)
    #else
      Darwin.write(descriptor, buffer, count)
    #endif
  }

  private static func syncFolder(_ folder: String) {
    let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}
