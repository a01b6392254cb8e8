import CSystem

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file writes that readers see as either the old or the new file, never a mix: a temporary file in
/// the same folder, fsync, rename over the target, fsync of the folder.
package enum AtomicFile {
  package static let temporaryMarker = ".gitjournal-tmp-"
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
  /// `destination`: where the write lands, as `readForReplacing` found it when the caller read the file; looked up
  /// here when not given. `creatingFolder`: made (with its parents) when the file cannot be made for want of it,
  /// instead of looked at before every write. `removingOld`: for a cache of gitjournal's own (not durable, read by
  /// no one else, in no synced folder), the old file is removed before the new one is put in its place. ext4
  /// flushes a new file's data when it is renamed over an old one (`auto_da_alloc`, against the empty files an
  /// unsynced replace could leave after a crash): a wait for the disk, which a hook paid for each cache it
  /// rewrote. A reader meanwhile finds no file: a cache miss. Never for the journal folder, where a sync tool
  /// would see the file deleted.
  package static func write(
    bytes: [UInt8], to path: String, mode requestedMode: mode_t? = nil, durable: Bool = true,
    holdingLock: Bool = false, lockHolder: String = "", unlessChangedFrom expected: FileStamp??,
    folderSyncs: FolderSyncs? = nil, destination known: Destination? = nil, creatingFolder: String? = nil,
    removingOld: Bool = false
  ) throws(SystemError) -> Bool {
    var destination = known ?? Destination(of: path)
    let target = destination.path
    let folder = PathText.folder(of: target)
    let mode = requestedMode ?? destination.mode ?? 0o644
    var expectsNoFile = false
    if case .some(.none) = expected { expectsNoFile = true }

    if removingOld && !durable && expected == nil && destination.mode != nil && unlink(target) == 0 {
      destination = Destination(path: target, mode: nil, isLink: destination.isLink)
    }
    if destination.mode == nil && (expected == nil || expectsNoFile) {
      switch try writeUnnamed(bytes, to: target, folder: folder, mode: mode, durable: durable) {
      case .written:
        if durable {
          if let folderSyncs { folderSyncs.add(folder) } else { syncFolder(folder) }
        }
        return true
      case .taken:
        // Someone made the file since it was looked at: replaced below, or left alone when none was expected.
        if expectsNoFile { return false }
      case .unsupported:
        break
      }
    }

    let temporary = temporaryPath(of: target, suffix: holdingLock ? lockedSuffix + lockHolder : String(getpid()))
    // O_EXCL: the temporary file is always a new one, never a killed writer's leftover (or a link someone put in its
    // place) written through.
    var descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    if descriptor < 0 && errno == ENOENT, let creatingFolder {
      try makeFolders(creatingFolder)
      descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    }
    if descriptor < 0 && errno == EEXIST {
      unlink(temporary)
      descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    }
    // Errors name the folder or the file the user knows, never the temporary file.
    guard descriptor >= 0 else { throw SystemError("create a file in", path: folder) }
    var failure = fill(
      descriptor, with: bytes, mode: isMadeWith(mode, in: folder) ? nil : mode, durable: durable, path: target)
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

  /// Where a write of a path lands, and the mode of the file there (nil when there is none): the path itself, or
  /// where its symlinks lead (the file is written through them).
  package struct Destination: Equatable, Sendable {
    package let path: String
    package let mode: mode_t?
    /// Whether the path written is a symlink.
    package let isLink: Bool

    init(path: String, mode: mode_t?, isLink: Bool) {
      self.path = path
      self.mode = mode
      self.isLink = isLink
    }

    /// Where a write of `path` lands when a symlink in its place is replaced by the file, never written through: for
    /// gitjournal's own files (records, caches), which it reads without following a link either.
    package init(replacing path: String) {
      var info = stat()
      let isFile = lstat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFLNK
      self.init(path: path, mode: isFile ? info.st_mode & 0o7777 : nil, isLink: false)
    }

    /// What one `lstat` of `path` says; only a symlink costs more (`readlink` for each link, `stat` at the end).
    package init(of path: String) {
      var info = stat()
      guard lstat(path, &info) == 0 else {
        self.init(path: path, mode: nil, isLink: false)
        return
      }
      guard info.st_mode & S_IFMT == S_IFLNK else {
        self.init(path: path, mode: info.st_mode & 0o7777, isLink: false)
        return
      }
      let target = AtomicFile.resolveSymlinks(path)
      self.init(path: target, mode: stat(target, &info) == 0 ? info.st_mode & 0o7777 : nil, isLink: true)
    }
  }

  private enum UnnamedWrite { case written, taken, unsupported }

  /// Writes a file that is not there yet without a temporary name (Linux's O_TMPFILE): the file is made unnamed and
  /// linked in whole, and the link fails when something came meanwhile. Creating, renaming and unmaking a temporary
  /// name cost a rebuild about 20 µs more a file on ext4 than one link, and a crash leaves nothing behind.
  /// `.unsupported` where the system or the file system has no unnamed files, or the link cannot be made (the
  /// folder may be missing): the named write then does the work, and reports what fails.
  private static func writeUnnamed(
    _ bytes: [UInt8], to target: String, folder: String, mode: mode_t, durable: Bool
  ) throws(SystemError) -> UnnamedWrite {
    let descriptor = gitjournal_open_unnamed(folder, UInt32(mode))
    guard descriptor >= 0 else { return .unsupported }
    if let failure = fill(
      descriptor, with: bytes, mode: isMadeWith(mode, in: folder) ? nil : mode, durable: durable, path: target)
    {
      close(descriptor)
      throw failure
    }
    guard gitjournal_link_unnamed(descriptor, target) == 0 else {
      let linkError = errno
      close(descriptor)
      return linkError == EEXIST ? .taken : .unsupported
    }
    if close(descriptor) != 0 {
      // The file has its name already and may lack bytes: it was not there before, and is not left.
      let failure = SystemError("close", path: target)
      unlink(target)
      throw failure
    }
    return .written
  }

  /// Whether a file that open() makes new in `folder` with `mode` gets exactly `mode`: the umask takes none of its
  /// bits, and the folder has no default ACL, which would set them instead. A rebuild makes thousands of files with
  /// the usual 0644 under the usual umask 022, and an fchmod for each changed nothing. When either cannot be told,
  /// the mode is set.
  private static func isMadeWith(_ mode: mode_t, in folder: String) -> Bool {
    guard mode & ~0o777 == 0, let umask = processUmask, mode & umask == 0 else { return false }
    return foldersWithoutDefaultACL.answer(for: folder) { gitjournal_has_default_acl(folder) == 0 }
  }

  /// The process's umask, read once where the system tells it without changing it (Linux's /proc); gitjournal never
  /// sets it. (`umask()` reads it only by setting it, and a file another thread made meanwhile would get the mode
  /// set in between.)
  static let processUmask: mode_t? = {
    // One read of its start, where the umask is (after the name, of at most 15 bytes), as bytes: /proc tells no
    // size to read by, and string handling here was a large part of a hook (`bench/instructions.sh`).
    let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    let status = [UInt8](unsafeUninitializedCapacity: 256) { buffer, count in
      count = max(0, systemRead(descriptor, buffer.baseAddress!, buffer.count))
    }
    let field = Array("\nUmask:".utf8)
    guard let start = status.indices.first(where: { status[$0...].starts(with: field) }) else { return nil }
    var value: mode_t = 0
    var digits = 0
    for byte in status[(start + field.count)...] {
      if byte == UInt8(ascii: "\t") || byte == UInt8(ascii: " ") { continue }
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "7") else { break }
      value = value * 8 + mode_t(byte - UInt8(ascii: "0"))
      digits += 1
    }
    return digits > 0 ? value : nil
  }()

  /// Whether each folder written has no default ACL (`isMadeWith`), looked at once per folder.
  private static let foldersWithoutDefaultACL = FolderAnswers()

  /// One answer per folder, found once.
  private final class FolderAnswers: Sendable {
    // Files are written from several threads.
    private let answers = Locked<[String: Bool]>([:])

    func answer(for folder: String, _ find: () -> Bool) -> Bool {
      answers.withLock { answers in
        if let known = answers[folder] { return known }
        let found = find()
        answers[folder] = found
        return found
      }
    }
  }

  /// Writes all of `bytes` to a new file, gives it `mode` (nil: it has it) and, when `durable`, syncs it; the
  /// failure, if any.
  private static func fill(
    _ descriptor: Int32, with bytes: [UInt8], mode: mode_t?, durable: Bool, path target: String
  ) -> SystemError? {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0 {
        if errno != EINTR { return SystemError("write", path: target) }
      } else {
        offset += written
      }
    }
    // open() applies the umask; the mode asked for (or the replaced file's) is the mode wanted.
    if let mode, fchmod(descriptor, mode) != 0 { return SystemError("set permissions of", path: target) }
    if durable && fsync(descriptor) != 0 { return SystemError("sync", path: target) }
    return nil
  }

  /// Folders whose renames are made durable together, each synced once, where each write would sync its folder:
  /// a commit's hook writes the day's record, its page and its week's and month's pages, and on a journaling file
  /// system every folder sync is a commit of the file system's journal. A durable write's bytes are still synced
  /// before it replaces the old file, so a crash before `syncAll` leaves the old version or the new one of it,
  /// never half of one, and no note a user wrote is lost. (A page of gitjournal's alone is written without a sync,
  /// see `LockedJournalStore.write`: a crash may leave it empty, and the next write makes it again.)
  package final class FolderSyncs: Sendable {
    private let folders = Locked<[String]>([])

    package init() {}

    func add(_ folder: String) {
      folders.withLock { folders in if !folders.contains(folder) { folders.append(folder) } }
    }

    /// Syncs every folder added since the last call.
    package func syncAll() {
      let pending = folders.withLock { folders in
        defer { folders = [] }
        return folders
      }
      for folder in pending { AtomicFile.syncFolder(folder) }
    }
  }

  /// The name of the temporary file a lock-holding writer of the file named `name` uses (see `lockedSuffix`).
  package static func lockedTemporaryName(of name: String, lockHolder: String = "") -> String {
    "." + name + temporaryMarker + lockedSuffix + lockHolder
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
    return try readOpened(path, flags: 0)?.contents
  }

  /// `readContents` of a file gitjournal keeps for itself in its own folders (a cache, its state), opened without a
  /// look first: a hook reads one for every configured repository, and the look was one system call in seventeen.
  /// It is opened not blocking and not following a symlink in its place (either fails the read), then checked to be
  /// a regular file before a byte is read. Only a device node made in gitjournal's own folder, which takes root,
  /// would be opened.
  package static func readOwnFile(_ path: String, largest: Int? = nil) throws(SystemError) -> Contents? {
    try readOpened(path, flags: O_NOFOLLOW, largest: largest)?.contents
  }

  /// `readOwnFile` of the file named `name` in `folder`, looked up by name in the open folder: a symlink in its place
  /// is not followed (the read fails).
  package static func readContents(_ name: String, in folder: OpenFolder) throws(SystemError) -> Contents? {
    try readOpened(folder.path(of: name), flags: O_NOFOLLOW) { folder.openFile(name, flags: $0) }?.contents
  }

  /// `readContents` of a file about to be replaced, with where its write lands (give it to `write`): found by the
  /// same `lstat`, so that a file that is no symlink costs no `readlink` and no second look.
  package static func readForReplacing(
    _ path: String
  ) throws(SystemError) -> (contents: Contents?, destination: Destination) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT || errno == ENOTDIR { return (nil, Destination(path: path, mode: nil, isLink: false)) }
      throw SystemError("read", path: path)
    }
    if info.st_mode & S_IFMT != S_IFLNK {
      try requireRegularFile(info, path: path)
      // O_NOFOLLOW: a symlink put there since the lstat is not taken for the file (its rename would replace the
      // link); it fails with ELOOP and is read as a link below.
      do {
        guard let opened = try readOpened(path, flags: O_NOFOLLOW) else {
          return (nil, Destination(path: path, mode: nil, isLink: false))
        }
        return (opened.contents, Destination(path: path, mode: opened.mode, isLink: false))
      } catch {
        guard error.errorNumber == ELOOP else { throw error }
      }
    }
    return (try readContents(path), Destination(of: path))
  }

  /// Opens and reads the regular file at `path`; nil when it is gone.
  /// `opening`: how the file is opened with the flags given (by `path` unless said).
  /// `largest`: a file of more bytes is refused before any is read.
  private static func readOpened(
    _ path: @autoclosure () -> String, flags: Int32, largest: Int? = nil, opening: ((Int32) -> Int32)? = nil
  ) throws(SystemError) -> (contents: Contents, mode: mode_t)? {
    var info = stat()
    // O_NONBLOCK: a FIFO put there since the stat opens at once instead of waiting, and fstat refuses it.
    let openFlags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags
    // `withCString`: passing the String itself converts it through a new array, a copy for every file read.
    let descriptor = opening?(openFlags) ?? path().withCString { open($0, openFlags) }
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw SystemError("read", path: path())
    }
    defer { close(descriptor) }
    guard fstat(descriptor, &info) == 0 else { throw SystemError("read", path: path()) }
    try requireRegularFile(info, path: path())
    try requireAtMost(largest, info, path: path())
    // The size is a hint (the file may grow meanwhile), capped so that a bogus one cannot reserve gigabytes; one
    // byte more lets the first pass see the end. Read straight into the array: no buffer to clear and copy.
    var capacity = min(max(0, Int(clamping: info.st_size)), 1 << 24) + 1
    while true {
      var failed = false
      let size = Int(clamping: info.st_size)
      let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        count = 0
        guard let start = buffer.baseAddress else { return }
        while count < buffer.count {
          let asked = buffer.count - count
          let read = systemRead(descriptor, start + count, asked)
          if read == 0 { return }
          if read < 0 {
            if errno == EINTR { continue }
            failed = true
            return
          }
          count += read
          // Fewer bytes than asked, and all the file's size: its end, without one more read to be told so (a hook
          // reads a file for every configured repository).
          if read < asked && count == size { return }
        }
      }
      if failed { throw SystemError("read", path: path()) }
      if bytes.count < capacity {
        return (Contents(bytes: bytes, stamp: FileStamp(info)), info.st_mode & 0o7777)
      }
      // The file grew past the room given: read it again, with its new stamp and twice the room.
      guard lseek(descriptor, 0, SEEK_SET) == 0, fstat(descriptor, &info) == 0 else {
        throw SystemError("read", path: path())
      }
      try requireAtMost(largest, info, path: path())
      capacity *= 2
    }
  }

  /// Refuses a file of more than `largest` bytes (when given).
  private static func requireAtMost(
    _ largest: Int?, _ info: stat, path: @autoclosure () -> String
  ) throws(SystemError) {
    guard let largest, Int(clamping: info.st_size) > largest else { return }
    throw SystemError(
      "read", path: path(), errorNumber: EFBIG,
      explanation: "it holds \(info.st_size) bytes, more than the \(largest) gitjournal reads of it")
  }

  /// Refuses anything but a regular file, saying what it is.
  private static func requireRegularFile(_ info: stat, path: @autoclosure () -> String) throws(SystemError) {
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
      "read", path: path(), errorNumber: EINVAL,
      explanation: "it is \(kind), not a regular file, so gitjournal neither reads nor replaces it; move it away")
  }

  /// `path` with symlinks at its end followed (at most 32), with `readlink` rather than `FileManager`, which
  /// builds an error object for every path that is not a link.
  fileprivate static func resolveSymlinks(_ path: String) -> String {
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
