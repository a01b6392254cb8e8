import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The local branches of a repository, read from its files: each loose ref under `refs/heads` (a file holding an
/// id) and the `refs/heads` lines of `packed-refs`, a loose ref hiding a packed one of the same name. This is what
/// libgit2 1.5's reference iterator gives for `refs/heads/*` (`refdb_fs.c`), read with a folder opened once and
/// each file by name in it: libgit2 looks at each ref by its whole path, three times (a clone with thousands of
/// loose pull request branches spent a large part of a second rebuild there; a cold rebuild lists them twice, see
/// `CommitReader.commits`).
///
/// Anything else gives nil, and the caller asks libgit2: a symbolic ref, a symlink, a file that holds no id, a
/// `packed-refs` line it does not know, a folder it cannot read, a `.git` entry. Files named `*.lock` are skipped,
/// as libgit2 and git skip them (a ref being written), and so are FIFOs, sockets and devices, as libgit2 skips them.
enum LocalBranches {
  /// Branch names (`main`, `feature/x`: what follows `refs/heads/`) with the ids they point at, in no particular
  /// order.
  ///
  /// `git pack-refs` (which `git gc --auto` runs after ordinary commands) writes the new `packed-refs` first, then
  /// deletes the loose refs it packed: a read of the old `packed-refs` and then of the loose refs would miss those
  /// branches. So `packed-refs` is looked at again once the loose refs are read, and all is read again when it
  /// changed meanwhile (a few times at most, then libgit2 is asked). `betweenReads` runs after each read of
  /// `packed-refs`, before the loose refs are read: a test's way into that window.
  static func list(commonDirectory: String, betweenReads: (() -> Void)? = nil) -> [BranchTip]? {
    let packedPath = commonDirectory + "/packed-refs"
    for _ in 0..<Self.readsWhilePacking {
      let before = FileStamp(path: packedPath)
      guard let branches = readOnce(commonDirectory: commonDirectory, betweenReads: betweenReads) else { return nil }
      if FileStamp(path: packedPath) == before { return branches }
    }
    return nil
  }

  /// How many times the branches are read while `packed-refs` keeps changing under the reads.
  static let readsWhilePacking = 3

  /// One read of `packed-refs`, then of the loose refs.
  private static func readOnce(commonDirectory: String, betweenReads: (() -> Void)?) -> [BranchTip]? {
    var packed: [String: ObjectID] = [:]
    guard readPacked(commonDirectory + "/packed-refs", into: &packed) else { return nil }
    betweenReads?()
    var branches: [BranchTip] = []
    let descriptor = open(commonDirectory + "/refs/heads", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if descriptor < 0 {
      // No loose branch at all (`git pack-refs --all`, a fresh clone) is the only absence known here.
      guard errno == ENOENT else { return nil }
    } else {
      guard readLoose(descriptor, prefix: "", into: &branches, depth: 0) else { return nil }
    }
    if !packed.isEmpty {
      // A loose ref hides the packed one of its name.
      for (name, _) in branches { packed.removeValue(forKey: name) }
      branches += packed.map { ($0.key, $0.value) }
    }
    return branches
  }

  /// Folders nested deeper than this are left to libgit2: no branch name comes near it.
  static let deepestFolder = 64

  /// Adds the loose refs in the folder open as `descriptor` (which this closes) and its subfolders.
  private static func readLoose(
    _ descriptor: Int32, prefix: String, into loose: inout [BranchTip], depth: Int
  ) -> Bool {
    guard depth < deepestFolder, let directory = fdopendir(descriptor) else {
      close(descriptor)
      return false
    }
    defer { closedir(directory) }
    // The folder's files are read once it is listed: thousands of them (a clone with its pull requests as branches)
    // are read on several threads.
    var files: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        return String(decoding: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)], as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      // libgit2 skips `.git` entries, and takes a folder holding one for a submodule.
      if name == ".git" { return false }
      switch Int32(entry.pointee.d_type) {
      case Int32(DT_DIR):
        let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0, readLoose(child, prefix: prefix + name + "/", into: &loose, depth: depth + 1) else {
          return false
        }
      case Int32(DT_REG):
        if name.hasSuffix(".lock") { continue }
        files.append(name)
      case Int32(DT_FIFO), Int32(DT_SOCK), Int32(DT_CHR), Int32(DT_BLK):
        // Skipped by libgit2 too, and never opened: a FIFO would wait for a writer.
        continue
      default:
        // A symlink, or a file system that does not say what an entry is.
        return false
      }
    }
    let ids = SideThreads.map(files, runsOfAtLeast: filesPerThread) { names in names.map { readID(descriptor, $0) } }
    for (name, id) in zip(files, ids) {
      guard let id else { return false }
      loose.append((prefix + name, id))
    }
    return true
  }

  /// How many ref files of one folder make a thread of their own: each is an open, a read and a close (about 7 µs),
  /// and a thread starts in 20 to 100 µs.
  static let filesPerThread = 256

  /// The id a loose ref file holds: 40 hex digits, then nothing or white space, as libgit2 requires.
  private static func readID(_ folder: Int32, _ name: String) -> ObjectID? {
    // Not blocking: a FIFO put in the ref's place since the listing would make `open` wait for a writer.
    let file = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    return withUnsafeTemporaryAllocation(byteCount: 128, alignment: 1) { buffer -> ObjectID? in
      let count = read(file, buffer.baseAddress, buffer.count)
      // A ref file is 41 bytes; a longer one is no ref this reads.
      guard count >= 40, count < buffer.count else { return nil }
      let text = UnsafeRawBufferPointer(rebasing: buffer[..<count])
      if count > 40 && !isSpace(text[40]) { return nil }
      return ObjectID(hexDigits: text[..<40])
    }
  }

  /// Adds the `refs/heads` entries of `packed-refs` at `path`; true when there is none. Its lines are its header
  /// (`# pack-refs with: ...`), `<id> <name>`, and `^<id>` for the object an annotated tag above points at.
  private static func readPacked(_ path: String, into branches: inout [String: ObjectID]) -> Bool {
    // Only a regular file is read (a FIFO would block); nil is no file at all.
    let contents: AtomicFile.Contents?
    do {
      contents = try AtomicFile.readContents(path)
    } catch {
      return false
    }
    guard let contents else { return true }
    for line in contents.bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
      switch line.first {
      case UInt8(ascii: "#"), UInt8(ascii: "^"): continue
      default:
        guard line.count > 41, line[line.startIndex + 40] == UInt8(ascii: " "), !line.contains(UInt8(ascii: "\r")),
          let id = ObjectID(hexDigits: line.prefix(40))
        else { return false }
        let name = line.dropFirst(41)
        if name.starts(with: Self.branchPrefix) {
          branches[String(decoding: name.dropFirst(Self.branchPrefix.count), as: UTF8.self)] = id
        }
      }
    }
    return true
  }

  private static let branchPrefix = Array("refs/heads/".utf8)

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0D).contains(byte)
  }
}
