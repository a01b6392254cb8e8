import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The last short-span read of one configured repository, kept with the stamp of what decided it (see
/// `RepositoryStamp`): while the stamp holds, the hook takes the read from here without opening the repository
/// with libgit2, so a repository nobody committed in costs a few `stat` calls and one small file.
///
/// One `StateFile` per configured folder under `<cache>/reads-v4/`, named by a hash of the folder: a record
/// `read <folder>`, a record `query <fields>...` (the span, the author filter, merges, `HOME` and
/// `XDG_CONFIG_HOME`), a record `repository <bare 0|1> <common dir>`, a record `stamps <hex> <path>...` (a path
/// in the configured folder relative to it, the folder itself as nothing; each path after a letter for what is
/// stamped of it: `a` that nothing is there, `h0` or `h1` that nothing is there,
/// not even a symlink, in the first or second folder of the record stamped `g` (a working tree whose times were too
/// recent is stamped `n`, and its `.git` is then the first `g`), `n` which file or folder it is, `f` all of it, `g`
/// all of a folder, of which only which folder it is must hold; `<hex>` holds each path's stamp in turn, see
/// `stampLength`), a record `commits`,
/// one record per commit (see `WalkedCommit.fields`; the committer time is not kept) and a last record `end`.
/// Anything else is a miss. The stamps are compared as text, not parsed as numbers: a hook checks about fifteen
/// paths of every quiet repository, and parsing their numbers would cost it more than the rest of the check.
package struct StampedRead {
  /// Where the stored reads are kept; nil keeps nothing.
  private let cacheDirectory: String?
  private let root: String
  private let query: Query

  /// `cacheDirectory` nil keeps nothing. `query` is everything besides the repository that decides the read (see
  /// `Query`).
  init(cacheDirectory: String?, root: String, query: Query) {
    self.cacheDirectory = cacheDirectory
    self.root = root
    self.query = query
  }

  /// What decides a read besides the repository: the given fields and the environment that decides the global
  /// config files. The same for every repository a reading reads, so it is made once for them all.
  package struct Query: Sendable, Equatable {
    let fields: [String]
    /// The `query` record as a stored read holds it, without its line feed: made once for all the repositories of
    /// a reading, and compared with a stored record in one piece rather than field by field (a hook does it for
    /// every quiet repository).
    let record: [UInt8]

    init(_ fields: [String]) {
      self.fields = fields + StampedRead.configEnvironment
      record = Array(StateFile.bytes(of: [["query"] + self.fields]).dropLast())
    }
  }

  /// The stored read, when it was stored for this query and every stamped path stamps as it did.
  func current() -> ScannedRepository? {
    guard let path else { return nil }
    return parsed { StateFile.read(path, $0) }
  }

  /// This folder's stored read.
  private var path: String? {
    cacheDirectory.map { Self.path(in: $0, of: root) }
  }

  /// The read that `read` gives record by record, when it is one for this folder and query whose stamp holds.
  private func parsed(_ read: ((StateRecord) -> Bool) -> Void) -> ScannedRepository? {
    var scanned = ScannedRepository(isBare: false, commits: [])
    var index = 0
    var isComplete = false
    let folder = Folder(root)
    defer { folder.release() }
    read { record in
      defer { index += 1 }
      switch index {
      case 0: return record.count == 2 && record.field(0, is: "read") && record.field(1, equals: root)
      case 1: return record.hasBytes(query.record)
      case 2:
        guard record.count == 3, record.field(0, is: "repository"), let bare = record.integer(1), bare <= 1 else {
          return false
        }
        scanned.isBare = bare == 1
        scanned.commonDirectory = record.text(2)
        return true
      case 3: return record.field(0, is: "stamps") && Self.holds(record, under: folder)
      case 4: return record.count == 1 && record.field(0, is: "commits")
      default:
        if record.count == 1 && record.field(0, is: "end") {
          isComplete = true
          return false
        }
        guard let commit = WalkedCommit(record) else { return false }
        scanned.commits.append(commit.record)
        return true
      }
    }
    return isComplete ? scanned : nil
  }

  /// The configured folder, open for looking up the stamped paths below it (`.git/HEAD`, `.git/refs/heads/...`)
  /// relative to it: with absolute paths, a hundred repositories' stamps cost the kernel a lookup per component of
  /// every path, most of the hook's `stat` time.
  struct Folder {
    /// -1 when the folder could not be opened (no read permission): every path is then looked up whole.
    let descriptor: Int32
    let path: String

    init(_ path: String) {
      descriptor = path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
      self.path = path
    }

    func release() { if descriptor >= 0 { close(descriptor) } }

    /// The whole path of `relative` (the folder itself when empty).
    func path(of relative: String) -> String { relative.isEmpty ? path : path + "/" + relative }

    /// The stamp of the path `relative` to the folder (the folder itself when empty).
    func stamp(of relative: Slice<UnsafeRawBufferPointer>, kind: PathStamp.Kind) -> PathStamp {
      if descriptor < 0 {
        return PathStamp(
          path: path(of: String(decoding: UnsafeRawBufferPointer(rebasing: relative), as: UTF8.self)), kind: kind)
      }
      return relative.isEmpty
        ? PathStamp(openFolder: descriptor, kind: kind) : PathStamp(pathBytes: relative, in: descriptor, kind: kind)
    }
  }

  /// Keeps `scanned` under `stamp`; nil (no stamp could be trusted) removes what was kept.
  func store(_ scanned: ScannedRepository, stamp: RepositoryStamp?) {
    guard let path else { return }
    guard let stamp else {
      unlink(path)
      return
    }
    var stamps = ["stamps", Self.text(of: stamp.entries.map(\.stamp))]
    // The `g` folders so far, in order: a path absent in the first or second of them is `h0` or `h1`.
    var guards: [String] = []
    for (file, entry) in stamp.entries {
      let letter: String
      switch entry.kind {
      case .absent:
        // Only a free name: a symlink to nothing would see its target appear elsewhere, its folder unchanged.
        let guardIndex = entry.isNameFree ? Self.parent(of: file).flatMap { guards.firstIndex(of: $0) } : nil
        letter = guardIndex.map { $0 < 2 ? "h\($0)" : "a" } ?? "a"
      case .node: letter = "n"
      case .full: letter = "f"
      case .guarding:
        letter = "g"
        guards.append(file)
      }
      stamps.append(letter + relative(file))
    }
    var records = [
      ["read", root], ["query"] + query.fields, ["repository", scanned.isBare ? "1" : "0", scanned.commonDirectory],
      stamps,
      ["commits"],
    ]
    records += scanned.commits.map { WalkedCommit(record: $0, committed: 0).fields }
    records.append(["end"])
    try? StateFile.write(records, to: path, isCache: true)
  }

  /// The text of one path's stamp: one digit for what is there (0 nothing, 1 a file, 2 a folder), then sixteen
  /// lowercase hex digits of `identity` (which file or folder) and sixteen of `version` (which version of it).
  ///
  /// Hashed, where the seven numbers were each written out before: a hook with a hundred repositories compares
  /// seven hundred stamps, and writing seven numbers' digits for each was a sixth of what a quiet repository cost
  /// it. Every step of the hash maps one number to the next state one to one, so a stamp in which one number
  /// changed never hashes as before; when several changed, one time in 2^64.
  static let stampLength = 1 + 2 * 16

  /// The stamps' text, one after the other.
  static func text(of stamps: [PathStamp]) -> String {
    var text: [UInt8] = []
    text.reserveCapacity(stamps.count * stampLength)
    for stamp in stamps {
      text.append(48 + what(stamp))
      withUnsafeBytes(of: hexDigits(identity(of: stamp))) { text += $0 }
      withUnsafeBytes(of: hexDigits(version(of: stamp))) { text += $0 }
    }
    return String(decoding: text, as: UTF8.self)
  }

  private static func what(_ stamp: PathStamp) -> UInt8 { stamp.kind == .absent ? 0 : stamp.isFolder ? 2 : 1 }

  /// A hash of the device and the inode; zero when nothing is there.
  static func identity(of stamp: PathStamp) -> UInt64 {
    stamp.kind == .absent ? 0 : mixed(mixed(0x243F_6A88_85A3_08D3, stamp.device), stamp.inode)
  }

  /// A hash of the size and the modification and change times (seconds, nanoseconds); zero for a stamp of a kind
  /// that does not hold them (nothing there, or a folder's node).
  static func version(of stamp: PathStamp) -> UInt64 {
    guard stamp.kind == .full || stamp.kind == .guarding else { return 0 }
    var hash = mixed(0x1319_8A2E_0370_7344, UInt64(bitPattern: stamp.size))
    hash = mixed(hash, UInt64(bitPattern: stamp.modified.seconds))
    hash = mixed(hash, UInt64(bitPattern: stamp.modified.nanoseconds))
    hash = mixed(hash, UInt64(bitPattern: stamp.changed.seconds))
    return mixed(hash, UInt64(bitPattern: stamp.changed.nanoseconds))
  }

  /// `number` mixed into `hash`: an exclusive or, a multiplication by an odd number and a shift folded back in,
  /// each of which maps one state to one other, so that for the same `hash` two numbers never give one result.
  @inline(__always) static func mixed(_ hash: UInt64, _ number: UInt64) -> UInt64 {
    let product = (hash ^ number) &* 0x9E37_79B9_7F4A_7C15
    return product ^ (product >> 29)
  }

  /// `number`'s sixteen hex digits, most significant first, as two words whose bytes in memory are the digits'
  /// ASCII: made with a few word operations and compared as two words, where a digit at a time cost the hook
  /// a loop per byte.
  static func hexDigits(_ number: UInt64) -> (UInt64, UInt64) {
    (eightHexDigits(UInt32(truncatingIfNeeded: number >> 32)), eightHexDigits(UInt32(truncatingIfNeeded: number)))
  }

  private static func eightHexDigits(_ value: UInt32) -> UInt64 {
    // Nibble i of the value into byte i of the word, then byte-swapped: the most significant nibble first.
    var nibbles = UInt64(value)
    nibbles = (nibbles | (nibbles << 16)) & 0x0000_FFFF_0000_FFFF
    nibbles = (nibbles | (nibbles << 8)) & 0x00FF_00FF_00FF_00FF
    nibbles = (nibbles | (nibbles << 4)) & 0x0F0F_0F0F_0F0F_0F0F
    nibbles = nibbles.byteSwapped
    // 1 in each byte whose nibble is 10 or more (nibble + 6 reaches 16), which becomes a letter: "a" - "0" - 10.
    let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
    let digits = nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
    // The words go to memory little-endian, lowest byte first.
    return digits.littleEndian
  }

  /// `path` relative to the configured folder when it is the folder or below it (empty for the folder itself),
  /// else as it is: what the stamps record holds, shorter to read and looked up below the open folder without
  /// comparing its beginning with the folder's path.
  /// Compared and cut by bytes: `String`'s comparison takes two spellings of an accented name as one, and a cut
  /// by a count of bytes could then land inside a character. A path whose rest begins with another `/` (a
  /// `mailmap.file` written `<folder>//mailmap`) stays whole: relative, it would read as a path from the root.
  private func relative(_ path: String) -> String {
    let bytes = path.utf8
    let folder = root.utf8
    guard root != "/", bytes.starts(with: folder) else { return path }
    if bytes.count == folder.count { return "" }
    let rest = bytes.dropFirst(folder.count)
    guard rest.count > 1, rest.first == UInt8(ascii: "/"), rest.dropFirst().first != UInt8(ascii: "/") else {
      return path
    }
    return String(decoding: rest.dropFirst(), as: UTF8.self)
  }

  /// The folder `path` is in, without its last `/`; nil for a path without one.
  private static func parent(of path: String) -> String? {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
    return String(path[..<slash])
  }

  /// Whether every path of a `stamps` record stamps as the record says; false for a record that is not one.
  private static func holds(_ record: StateRecord, under folder: Folder) -> Bool {
    let paths = record.count - 2
    let text = UnsafeRawBufferPointer(rebasing: record.bytes(1))
    guard paths >= 1, text.count == paths * stampLength, let textBase = text.baseAddress else { return false }
    let hasEscapes = record.hasEscapes
    // Read once here: a static is reached through a check that it is made, at every use.
    let sharedStamps = Self.sharedStamps
    // Whether the first and the second `g` folder held: `h0` and `h1` paths are in them.
    var guardCount = 0
    var heldGuards = (false, false)
    for index in 0..<paths {
      let field = record.bytes(2 + index)
      guard let letter = field.first else { return false }
      let kind: PathStamp.Kind
      var isGuard = false
      // Where the path begins in the field, after its letters.
      var pathStart = 1
      switch letter {
      // A path stamped as absent is measured whole: anything there now differs from the stamp's "nothing".
      case UInt8(ascii: "a"), UInt8(ascii: "f"): kind = .full
      case UInt8(ascii: "h"):
        // Absent in a folder whose times held: nothing was made there since.
        guard field.count > 1 else { return false }
        switch field[field.startIndex + 1] {
        case UInt8(ascii: "0"): if heldGuards.0 { continue }
        case UInt8(ascii: "1"): if heldGuards.1 { continue }
        default: return false
        }
        pathStart = 2
        kind = .full
      case UInt8(ascii: "n"): kind = .node
      case UInt8(ascii: "g"):
        kind = .full
        isGuard = true
      default: return false
      }
      let file = field.dropFirst(pathStart)
      let expected = textBase + index * stampLength
      let measured: PathStamp
      if hasEscapes && record.isEscaped(2 + index) {
        // An escaped path (a tab or a backslash in it) is unescaped first.
        let path = String(record.text(2 + index).dropFirst(pathStart))
        measured = PathStamp(path: path.hasPrefix("/") ? path : folder.path(of: path), kind: kind)
      } else if file.first != UInt8(ascii: "/") {
        // The folder itself or a path below it: not one of the shared config files, unless the repository holds
        // the home folder, and then it is measured here as well as it would be there.
        measured = folder.stamp(of: file, kind: kind)
      } else if kind == .full && !isGuard, let holds = sharedStampHolds(file, expected, in: sharedStamps) {
        // A shared config file: its stamp's text, made once per process, compared whole.
        guard holds else { return false }
        continue
      } else {
        measured = PathStamp(pathBytes: file, kind: kind)
      }
      guard expected.load(as: UInt8.self) == 48 + what(measured),
        matches(identity(of: measured), expected + 1)
      else { return false }
      // A guard must be the same folder; its version says whether it held.
      let versionHolds = matches(version(of: measured), expected + 17)
      if isGuard {
        if guardCount == 0 { heldGuards.0 = versionHolds } else if guardCount == 1 { heldGuards.1 = versionHolds }
        guardCount += 1
      } else if !versionHolds {
        return false
      }
    }
    return true
  }

  /// Whether `value`'s sixteen hex digits are those at `expected`.
  @inline(__always) private static func matches(_ value: UInt64, _ expected: UnsafeRawPointer) -> Bool {
    // An absent path's numbers, and a node's version, are zero: their digits are known.
    let (high, low) = value == 0 ? zeroDigits : hexDigits(value)
    return expected.loadUnaligned(as: UInt64.self) == high
      && expected.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == low
  }

  /// `hexDigits(0)`: sixteen ASCII zeros, whatever the byte order.
  private static let zeroDigits: (UInt64, UInt64) = (0x3030_3030_3030_3030, 0x3030_3030_3030_3030)

  /// The global, XDG and system config files, stamped once per process: every repository's stamp has them, and a
  /// hook with a hundred repositories would `stat` each a hundred times. A change to one while a hook runs counts
  /// from the next hook, as a change to a repository's refs just after its check does.
  /// Each one's stamp is kept as its text (see `text(of:)`), which a stored stamp of it must equal: compared in one
  /// piece rather than number by number, a few hundred instructions less for each of them in every repository.
  private static let sharedStamps: [(path: [UInt8], text: [UInt8])] = {
    guard let home = configEnvironment.first, !home.isEmpty else { return [] }
    return RepositoryStamp.globalConfigFiles(home: home).map { path in
      (Array(path.utf8), Array(Self.text(of: [PathStamp(path: path, kind: .full)]).utf8))
    }
  }()

  /// Whether the stamp text at `expected` is that of the shared config file at `path`; nil when `path` is none of
  /// them.
  private static func sharedStampHolds(
    _ path: Slice<UnsafeRawBufferPointer>, _ expected: UnsafeRawPointer,
    in sharedStamps: [(path: [UInt8], text: [UInt8])]
  ) -> Bool? {
    let bytes = UnsafeRawBufferPointer(rebasing: path)
    guard let base = bytes.baseAddress else { return nil }
    for shared in sharedStamps where shared.path.count == bytes.count {
      if shared.path.withUnsafeBytes({ memcmp($0.baseAddress!, base, bytes.count) }) == 0 {
        return shared.text.withUnsafeBytes { memcmp($0.baseAddress!, expected, stampLength) == 0 }
      }
    }
    return nil
  }

  /// `<cache>/reads-v4/<name>.tsv`, the name FNV-1a of the folder's bytes in hex: a name, not a check (the first
  /// record holds the folder). Made in one piece: a hook makes one for every configured repository, and joining
  /// the four parts cost it a string's growth each.
  static func path(in cacheDirectory: String, of root: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var folderPath = root
    folderPath.withUTF8 { for byte in $0 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 } }
    var cache = cacheDirectory
    return cache.withUTF8 { cache in
      let middle: StaticString = "/reads-v4/"
      let suffix: StaticString = ".tsv"
      let length = cache.count + middle.utf8CodeUnitCount + 16 + suffix.utf8CodeUnitCount
      return String(unsafeUninitializedCapacity: length) { buffer in
        var end = 0
        func append(_ bytes: UnsafeBufferPointer<UInt8>) {
          guard let source = bytes.baseAddress else { return }
          UnsafeMutableRawPointer(buffer.baseAddress! + end).copyMemory(from: source, byteCount: bytes.count)
          end += bytes.count
        }
        append(cache)
        append(UnsafeBufferPointer(start: middle.utf8Start, count: middle.utf8CodeUnitCount))
        withUnsafeBytes(of: hexDigits(hash)) { append($0.assumingMemoryBound(to: UInt8.self)) }
        append(UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount))
        return end
      }
    }
  }

  /// `HOME` and `XDG_CONFIG_HOME`, which decide the global config files: read once, as libgit2 finds those files
  /// once per process.
  fileprivate static let configEnvironment = [environment("HOME"), environment("XDG_CONFIG_HOME")]

  private static func environment(_ name: String) -> String {
    guard let value = getenv(name) else { return "" }
    return String(cString: value)
  }
}
