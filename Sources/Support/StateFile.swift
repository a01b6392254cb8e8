#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one format of the files gitjournal keeps for itself (line statistics, branch tips, recent windows, the
/// model server's pause): one record per line, its fields separated by tabs; inside a field, backslash, tab,
/// line feed and carriage return are written `\\`, `\t`, `\n` and `\r`, so any text fits in a field and any
/// field in a line.
///
/// Only lines that end in a line feed are records: a write cut short by a crash or a full disk loses its last
/// record, never garbles one. These files are caches: one that cannot be read or written costs time only, so
/// the reader skips what it cannot parse and the writers skip the fsyncs.
package enum StateFile {
  /// Calls `body` with each complete record, in file order, until it returns false. A file that is missing, not a
  /// regular file, or a symlink in the file's place, has no records (see `AtomicFile.readOwnFile`).
  package static func read(_ path: String, _ body: (StateRecord) -> Bool) {
    guard let bytes = ((try? AtomicFile.readOwnFile(path)) ?? nil)?.bytes else { return }
    read(bytes: bytes, body)
  }

  /// `read(_:_:)` of a file's bytes read already.
  package static func read(bytes: [UInt8], _ body: (StateRecord) -> Bool) {
    bytes.withUnsafeBytes { read(buffer: $0, lines: 0..<$0.count, body) }
  }

  /// `read(_:_:)` of the lines in `lines` of `buffer`, which starts at the start of a line.
  package static func read(buffer: UnsafeRawBufferPointer, lines: Range<Int>, _ body: (StateRecord) -> Bool) {
    // Line feeds and tabs are found with memchr, which looks at many bytes at once: a hook reads a dozen of
    // these files per repository, and a byte-by-byte scan showed in its instructions (`bench/instructions.sh`).
    // The tabs' positions go to one buffer reused for every line, grown when a line has more fields.
    var tabs = UnsafeMutableBufferPointer<Int>.allocate(capacity: 32)
    defer { tabs.deallocate() }
    var lineStart = lines.lowerBound
    while let lineEnd = StateFile.firstIndex(of: 10, in: buffer, from: lineStart, to: lines.upperBound) {
      var tabCount = 0
      var position = lineStart
      while let tab = StateFile.firstIndex(of: 9, in: buffer, from: position, to: lineEnd) {
        if tabCount == tabs.count {
          let grown = UnsafeMutableBufferPointer<Int>.allocate(capacity: tabs.count * 2)
          _ = grown.initialize(from: tabs)
          tabs.deallocate()
          tabs = grown
        }
        tabs[tabCount] = tab
        tabCount += 1
        position = tab + 1
      }
      let record = StateRecord(
        buffer: buffer, start: lineStart, end: lineEnd, tabs: UnsafeBufferPointer(rebasing: tabs[0..<tabCount]))
      guard body(record) else { return }
      lineStart = lineEnd + 1
    }
  }

  /// The position of the first `byte` in `buffer[from..<to]`, or nil.
  package static func firstIndex(of byte: UInt8, in buffer: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
    guard from < to, let base = buffer.baseAddress, let found = memchr(base + from, Int32(byte), to - from) else {
      return nil
    }
    return base.distance(to: UnsafeRawPointer(found))
  }

  /// Replaces the file with `records` in one rename (see `AtomicFile`), creating its folder. Readers see the old
  /// records or the new ones; for a cache (`isCache`), the old records, none, or the new ones (see `AtomicFile`'s
  /// `removingOld`): a cache is never in a folder that another machine or program reads.
  package static func write(_ records: [[String]], to path: String, isCache: Bool = false) throws(SystemError) {
    try makeFolders(PathText.folder(of: path))
    _ = try AtomicFile.write(
      bytes: bytes(of: records), to: path, durable: false, unlessChangedFrom: nil,
      destination: AtomicFile.Destination(replacing: path), removingOld: isCache)
  }

  /// Adds `records` at the end of the file with one `write` to a descriptor opened with `O_APPEND`, so that
  /// concurrent writers never interleave their lines.
  package static func append(_ records: [[String]], to path: String) throws(SystemError) {
    guard !records.isEmpty else { return }
    try makeFolders(PathText.folder(of: path))
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw SystemError("append to", path: path) }
    defer { close(descriptor) }
    var bytes = bytes(of: records)
    let written = bytes.withUnsafeMutableBytes { buffer in
      #if canImport(Glibc)
        Glibc.write(descriptor, buffer.baseAddress, buffer.count)
      #else
        Darwin.write(descriptor, buffer.baseAddress, buffer.count)
      #endif
    }
    guard written == bytes.count else { throw SystemError("append to", path: path) }
  }

  /// The lines of `records`, each field escaped, as UTF-8: built from bytes, since appending escaped `String`s
  /// was a visible part of a cold rebuild (a record per commit, and one file per day). A field with nothing to
  /// escape, nearly every one, is copied whole: byte by byte, it was a visible part of a hook with busy
  /// repositories (`bench/instructions.sh`).
  package static func bytes(of records: [[String]]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(records.count * 64)
    for record in records {
      for index in record.indices {
        if index > 0 { bytes.append(9) }
        var field = record[index]
        field.withUTF8 { utf8 in
          guard utf8.contains(where: { escape(of: $0) != nil }) else {
            bytes.append(contentsOf: utf8)
            return
          }
          for byte in utf8 {
            if let letter = escape(of: byte) { bytes += [92, letter] } else { bytes.append(byte) }
          }
        }
      }
      bytes.append(10)
    }
    return bytes
  }

  /// The letter that follows a backslash for a byte that a field cannot hold as it is: a backslash, a tab, a line
  /// feed or a carriage return.
  private static func escape(of byte: UInt8) -> UInt8? {
    switch byte {
    case 92: 92
    case 9: UInt8(ascii: "t")
    case 10: UInt8(ascii: "n")
    case 13: UInt8(ascii: "r")
    default: nil
    }
  }

  /// The byte a backslash and `letter` stand for: `escape(of:)` undone (any other letter stands for itself).
  static func unescaped(_ letter: UInt8) -> UInt8 {
    switch letter {
    case UInt8(ascii: "t"): 9
    case UInt8(ascii: "n"): 10
    case UInt8(ascii: "r"): 13
    default: letter
    }
  }
}
