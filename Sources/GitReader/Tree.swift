import CLibgit2
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A tree, read from its bytes as git writes them: for each entry its mode in octal digits, a space, its name,
/// a NUL and the 20 bytes of its id, in git's tree order. Entries are read in place, one at a time, as the
/// pairing of two trees reaches them; nothing is copied out but the ids and modes of the entries that differ.
final class Tree {
  private let object: RawObject
  private let id: ObjectID

  init(_ object: RawObject, id: ObjectID) {
    self.object = object
    self.id = id
  }

  var byteCount: Int { object.bytes.count }

  /// One entry, as positions in its tree's bytes.
  private struct RawEntry {
    /// Where the entry starts (its mode's first digit).
    let start: Int
    /// As libgit2 gives it (`normalizedMode`).
    let mode: UInt32
    let nameStart: Int
    let nameEnd: Int

    var isTree: Bool { mode == GIT_FILEMODE_TREE.rawValue }
    var idStart: Int { nameEnd + 1 }
  }

  /// The entries from the start, read one by one; a malformed entry throws, naming the tree.
  private struct Entries {
    let bytes: UnsafeRawBufferPointer
    let treeID: ObjectID
    var position = 0

    /// Moves past the whole entries that end within the first `length` bytes, finding only where each ends.
    mutating func skipEntries(within length: Int) {
      while position < length, let terminator = memchr(bytes.baseAddress! + position, 0, length - position) {
        let end = terminator - UnsafeMutableRawPointer(mutating: bytes.baseAddress!) + 1 + 20
        guard end <= length else { return }
        position = end
      }
    }

    mutating func next() throws(GitError) -> RawEntry? {
      guard position < bytes.count else { return nil }
      let start = position
      var mode: UInt32 = 0
      var digits = 0
      while position < bytes.count, bytes[position] >= 48, bytes[position] <= 55 {
        mode = mode << 3 | UInt32(bytes[position] - 48)
        guard mode <= 0xffff else { throw malformed("its file mode") }
        position += 1
        digits += 1
      }
      guard digits > 0, position < bytes.count, bytes[position] == 32 else { throw malformed("its file mode") }
      let nameStart = position + 1
      guard nameStart < bytes.count,
        let terminator = memchr(bytes.baseAddress! + nameStart, 0, bytes.count - nameStart)
      else { throw malformed("a name") }
      let nameEnd = nameStart + (terminator - UnsafeMutableRawPointer(mutating: bytes.baseAddress! + nameStart))
      guard nameEnd > nameStart, nameEnd + 1 + 20 <= bytes.count else { throw malformed("a name or an id") }
      position = nameEnd + 1 + 20
      return RawEntry(start: start, mode: Tree.normalizedMode(mode), nameStart: nameStart, nameEnd: nameEnd)
    }

    private func malformed(_ what: String) -> GitError {
      GitError(
        code: GIT_EINVALID.rawValue, function: "tree",
        message: "tree \(treeID.hex) is damaged: \(what) at byte \(position) cannot be read")
    }
  }

  /// The mode libgit2 reports for a stored one (`git_tree_entry_filemode`), so that a file whose mode was written
  /// by an old git (100664) compares as git and libgit2 compare it: a folder, else an executable file when its
  /// owner may execute it, else a submodule, a symbolic link or a file.
  static func normalizedMode(_ mode: UInt32) -> UInt32 {
    let type = mode & 0o170000
    if type == 0o040000 { return GIT_FILEMODE_TREE.rawValue }
    if mode & 0o100 != 0 { return GIT_FILEMODE_BLOB_EXECUTABLE.rawValue }
    if type == 0o160000 { return GIT_FILEMODE_COMMIT.rawValue }
    if type == 0o120000 { return GIT_FILEMODE_LINK.rawValue }
    return GIT_FILEMODE_BLOB.rawValue
  }

  /// Walks the entries of two trees side by side and calls `body` with each name's entries: both when both
  /// trees have the name, else the one that has it. Both trees are sorted the way git sorts them (a folder as if
  /// its name ended in `/`), so one pass pairs them. A file and a folder of the same name sort apart and come
  /// as a deletion and an addition.
  static func pairEntries(
    old: Tree?, new: Tree?, _ body: (_ old: TreeEntry?, _ new: TreeEntry?) throws(GitError) -> Void
  ) throws(GitError) {
    try pairRawEntries(old: old, new: new) { (oldEntry, newEntry) throws(GitError) in
      try body(entry(oldEntry, in: old), entry(newEntry, in: new))
    }
  }

  /// The one pass both pairings make: the raw entries of each name, nil on the side that lacks it, leaving out
  /// the entries both trees have exactly alike (same name, mode and id), which no caller looks at. Inlined, so
  /// the plain diff pays for no second closure.
  ///
  /// A commit changes few of a tree's entries: the bytes both trees share at their start are skipped entry by
  /// entry without comparing names, and once what is left of both trees is the same bytes the walk ends.
  @inline(__always)
  private static func pairRawEntries(
    old: Tree?, new: Tree?, _ body: (_ old: RawEntry?, _ new: RawEntry?) throws(GitError) -> Void
  ) throws(GitError) {
    guard let named = old ?? new else { return }
    let empty = UnsafeRawBufferPointer(start: nil, count: 0)
    var oldEntries = Entries(bytes: old?.object.bytes ?? empty, treeID: old?.id ?? named.id)
    var newEntries = Entries(bytes: new?.object.bytes ?? empty, treeID: new?.id ?? named.id)
    try withExtendedLifetime((old, new)) { () throws(GitError) in
      oldEntries.skipEntries(within: LineChanges.commonPrefixLength(oldEntries.bytes, newEntries.bytes))
      newEntries.position = oldEntries.position
      var oldEntry = try oldEntries.next()
      var newEntry = try newEntries.next()
      while oldEntry != nil || newEntry != nil {
        let order: Int32
        if let before = oldEntry, let after = newEntry {
          order = Self.order(before, in: oldEntries.bytes, after, in: newEntries.bytes)
          if order == 0, before.mode == after.mode,
            memcmp(oldEntries.bytes.baseAddress! + before.idStart, newEntries.bytes.baseAddress! + after.idStart, 20)
              == 0
          {
            (oldEntry, newEntry) = (try oldEntries.next(), try newEntries.next())
            continue
          }
        } else {
          order = oldEntry == nil ? 1 : -1
        }
        try body(order <= 0 ? oldEntry : nil, order >= 0 ? newEntry : nil)
        if order <= 0 { oldEntry = try oldEntries.next() }
        if order >= 0 { newEntry = try newEntries.next() }
        // After a difference, the rest may be the same in both (a file changed in the middle of its folder).
        if let before = oldEntry, let after = newEntry,
          oldEntries.bytes.count - before.start == newEntries.bytes.count - after.start,
          memcmp(
            oldEntries.bytes.baseAddress! + before.start, newEntries.bytes.baseAddress! + after.start,
            oldEntries.bytes.count - before.start) == 0
        {
          return
        }
      }
    }
  }

  /// git's order of two entries: by name, a folder's name as if it ended in `/`.
  private static func order(
    _ a: RawEntry, in aBytes: UnsafeRawBufferPointer, _ b: RawEntry, in bBytes: UnsafeRawBufferPointer
  ) -> Int32 {
    let aLength = a.nameEnd - a.nameStart
    let bLength = b.nameEnd - b.nameStart
    let common = min(aLength, bLength)
    let byBytes = memcmp(aBytes.baseAddress! + a.nameStart, bBytes.baseAddress! + b.nameStart, common)
    if byBytes != 0 { return byBytes }
    let aNext: UInt8 = aLength > common ? aBytes[a.nameStart + common] : (a.isTree ? 47 : 0)
    let bNext: UInt8 = bLength > common ? bBytes[b.nameStart + common] : (b.isTree ? 47 : 0)
    return Int32(aNext) - Int32(bNext)
  }

  private static func entry(_ entry: RawEntry?, in tree: Tree?) -> TreeEntry? {
    guard let entry, let tree else { return nil }
    var raw = git_oid()
    withUnsafeMutableBytes(of: &raw.id) {
      $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: tree.object.bytes[entry.idStart..<(entry.idStart + 20)]))
    }
    return TreeEntry(id: ObjectID(raw), mode: entry.mode)
  }
}

extension Tree {
  /// `pairEntries` with each entry's name, for the diff that leaves paths out (`PathFilter`). A separate walk so
  /// that the plain diff, which runs on every commit, never makes a string of a name.
  static func pairNamedEntries(
    old: Tree?, new: Tree?, _ body: (_ name: String, _ old: TreeEntry?, _ new: TreeEntry?) throws(GitError) -> Void
  ) throws(GitError) {
    try pairRawEntries(old: old, new: new) { (oldEntry, newEntry) throws(GitError) in
      let (named, tree) = oldEntry.map { ($0, old!) } ?? (newEntry!, new!)
      let name = String(
        decoding: UnsafeRawBufferPointer(rebasing: tree.object.bytes[named.nameStart..<named.nameEnd]), as: UTF8.self)
      try body(name, entry(oldEntry, in: old), entry(newEntry, in: new))
    }
  }
}
