import CSystem
import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file writes that readers see as either the old or the new file, never a mix: a temporary file in
/// the same folder, fsync, rename over the target, fsync of the folder.
package enum AtomicFile {
  static let temporaryMarker = ".gitjournal-tmp-"
  /// The temporary file's suffix for writers that hold the journal lock: only one of them writes at a time, so
  /// a fixed name is safe, and a killed writer's leftover is overwritten by the next write of that file.
  static let lockedSuffix = "locked"

  /// Writes `text` to `path`. A symlinked file is written through to its target; the file gets `mode`, or
  /// keeps its permissions when it exists (0644 for a new file). `durable` false skips the fsyncs (caches, or
  /// a batch that syncs once at its end): the rename still keeps readers from seeing half a file, but a crash
  /// may leave the file empty. `holdingLock`: the caller holds the journal lock (see `lockedSuffix`).
  package static func write(
    _ text: String, to path: String, mode requestedMode: mode_t? = nil, durable: Bool = true,
    holdingLock: Bool = false
  ) throws(SystemError) {
    _ = try write(
      bytes: Array(text.utf8), to: path, mode: requestedMode, durable: durable, holdingLock: holdingLock,
      unlessChangedFrom: nil)
  }

  /// Writes `bytes` as `write(_:to:...)` does. With `unlessChangedFrom`, the file is replaced only if it is still
  /// the version that stamp describes (checked just before the rename): returns false, leaving the file alone,
  /// when someone else wrote it since it was read. `.some(nil)` expects no file at all. `lockHolder` goes into
  /// a lock holder's temporary name: a folder several machines write (a synced or shared journal) has one
  /// journal lock per machine, so each needs a temporary name of its own.
  /// `folderSyncs`: the folder's sync (which makes the rename durable) is left to `FolderSyncs.syncAll()`.
  package static func write(
    bytes: [UInt8], to path: String, mode requestedMode: mode_t? = nil, durable: Bool = true,
    holdingLock: Bool = false, lockHolder: String = "", unlessChangedFrom expected: FileStamp??,
    folderSyncs: FolderSyncs? = nil
  ) throws(SystemError) -> Bool {
    let target = resolveSymlinks(path)
    let folder = PathText.folder(of: target)
    let temporary = temporaryPath(of: target, suffix: holdingLock ? lockedSuffix + lockHolder : String(getpid()))

    var mode: mode_t = 0o644
    var info = stat()
    if stat(target, &info) == 0 { mode = info.st_mode & 0o7777 }
    if let requestedMode { mode = requestedMode }

    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    // Errors name the folder or the file the user knows, never the temporary file.
    guard descriptor >= 0 else { throw SystemError("create a file in", path: folder) }
    var failure: SystemError?
    var bytes = bytes
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
    if failure == nil, let expected, FileStamp(path: target) != expected {
      unlink(temporary)
      return false
    }
    if failure == nil && rename(temporary, target) != 0 { failure = SystemError("replace", path: target) }
    if let failure {
      unlink(temporary)
      throw failure
    }
    if durable {
      if let folderSyncs { folderSyncs.add(folder) } else { syncFolder(folder) }
    }
    return true
  }

  /// Folders whose renames are made durable together, each synced once, where each write would sync its folder:
  /// a commit's hook writes the day's record, its page and its week's and month's pages, and on a journaling file
  /// system every folder sync is a commit of the file system's journal. A durable write's bytes are still synced
  /// before it replaces the old file, so a crash before `syncAll` leaves the old version or the new one of it,
  /// never half of one, and no note a user wrote is lost. (A page of gitjournal's alone is written without a sync,
  /// see `LockedJournalStore.write`: a crash may leave it empty, and the next write makes it again.)
  package final class FolderSyncs: @unchecked Sendable {
    private let lock = NSLock()
    private var folders: [String] = []

    package init() {}

    func add(_ folder: String) {
      lock.withLock { if !folders.contains(folder) { folders.append(folder) } }
    }

    /// Syncs every folder added since the last call.
    package func syncAll() {
      let pending = lock.withLock {
        defer { folders = [] }
        return folders
      }
      for folder in pending { AtomicFile.syncFolder(folder) }
    }
  }

  /// Removes the temporary file a killed lock-holding writer may have left beside `path`. Call while holding
  /// the journal lock.
  package static func removeLockedLeftover(besides path: String, lockHolder: String = "") {
    unlink(temporaryPath(of: resolveSymlinks(path), suffix: lockedSuffix + lockHolder))
  }

  private static func temporaryPath(of target: String, suffix: String) -> String {
    PathText.folder(of: target) + "/." + PathText.name(of: target) + temporaryMarker + suffix
  }

  /// Flushes everything written to the file system that holds `folder` (after a batch of writes that were not
  /// durable one by one).
  package static func syncFileSystem(containing folder: String) {
    let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = gitjournal_sync_file_system(descriptor)
    close(descriptor)
  }

  /// Reads a file as UTF-8 (invalid bytes replaced), or nil when it does not exist (see `readContents`).
  package static func read(_ path: String) throws(SystemError) -> String? {
    try readContents(path).map { String(decoding: $0.bytes, as: UTF8.self) }
  }

  /// A file's exact bytes and the stamp of the version they were read from.
  package struct Contents: Sendable {
    package let bytes: [UInt8]
    package let stamp: FileStamp
  }

  /// A file's bytes, or nil when it does not exist. Only a regular file is read: opening a FIFO for reading
  /// blocks until some writer comes (a commit would hang), and opening a device can act on it. Symlinks are
  /// followed, as `write` writes through them; what they point at is checked.
  package static func readContents(_ path: String) throws(SystemError) -> Contents? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw SystemError("read", path: path)
    }
    try requireRegularFile(info, path: path)
    // O_NONBLOCK: a FIFO put there since the stat opens at once instead of waiting, and fstat refuses it.
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw SystemError("read", path: path)
    }
    defer { close(descriptor) }
    guard fstat(descriptor, &info) == 0 else { throw SystemError("read", path: path) }
    try requireRegularFile(info, path: path)
    // The size is a hint (the file may grow meanwhile), capped so that a bogus one cannot reserve gigabytes; one
    // byte more lets the first pass see the end. Read straight into the array: no buffer to clear and copy.
    var capacity = min(max(0, Int(clamping: info.st_size)), 1 << 24) + 1
    while true {
      var failed = false
      let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        count = 0
        guard let start = buffer.baseAddress else { return }
        while count < buffer.count {
          let read = systemRead(descriptor, start + count, buffer.count - count)
          if read == 0 { return }
          if read < 0 {
            if errno == EINTR { continue }
            failed = true
            return
          }
          count += read
        }
      }
      if failed { throw SystemError("read", path: path) }
      if bytes.count < capacity { return Contents(bytes: bytes, stamp: FileStamp(info)) }
      // The file grew past the room given: read it again, with its new stamp and twice the room.
      guard lseek(descriptor, 0, SEEK_SET) == 0, fstat(descriptor, &info) == 0 else {
        throw SystemError("read", path: path)
      }
      capacity *= 2
    }
  }

  /// Refuses anything but a regular file, saying what it is.
  private static func requireRegularFile(_ info: stat, path: String) throws(SystemError) {
    let kind: String
    switch info.st_mode & S_IFMT {
    case S_IFREG: return
    case S_IFIFO: kind = "a FIFO"
    case S_IFSOCK: kind = "a socket"
    case S_IFCHR: kind = "a character device"
    case S_IFBLK: kind = "a block device"
    case S_IFDIR: kind = "a folder"
    default: kind = "something else"
    }
    throw SystemError(
      "read", path: path, errorNumber: EINVAL,
      explanation: "it is \(kind), not a regular file, so gitjournal neither reads nor replaces it; move it away")
  }

  /// `path` with symlinks at its end followed (at most 32), with `readlink` rather than `FileManager`, which
  /// builds an error object for every path that is not a link.
  private static func resolveSymlinks(_ path: String) -> String {
    var resolved = path
    // On the stack: a rebuild resolves a path for every page it writes, and nearly all are no link at all.
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX) + 1) { buffer in
      for _ in 0..<32 {
        let length = readlink(resolved, buffer.baseAddress!, buffer.count - 1)
        guard length > 0 else { break }
        let destination = String(
          decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: length), as: UTF8.self)
        resolved = destination.hasPrefix("/") ? destination : PathText.folder(of: resolved) + "/" + destination
      }
    }
    return resolved
  }

  private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(descriptor, buffer, count)
    #else
      Darwin.read(descriptor, buffer, count)
    #endif
  }

  private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(descriptor, buffer, count)
    #else
      Darwin.write(descriptor, buffer, count)
    #endif
  }

  fileprivate static func syncFolder(_ folder: String) {
    let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}
