import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A copy of the stored reads (see `StampedRead`) of many repositories in one file, `<cache>/reads-v3/all.tsv`,
/// read in one piece: a hook that checks a hundred quiet repositories would otherwise open, look at, read and close
/// a hundred small files, four system calls each, about a fifth of its time with so many.
///
/// The copy is only ever made from the repositories' own files, one after the other in the order given, and is
/// never updated in place: a copy is used only while its own stamps hold (the query, the folder and every stamped
/// path, as for the file it was made from), so an old copy costs a look at the repository's own file, never a
/// wrong answer. Two hooks that make it at once each write a whole file by rename; the last one stays.
package final class StampedReadBundle: Sendable {
  /// The file's bytes.
  private let bytes: [UInt8]
  /// Each copy's folder, from its `read` record, and its lines in `bytes`, in file order.
  private let copies: [(root: String, lines: Range<Int>)]

  /// The most the file may hold: about 2 KB for each quiet repository, more for one with many commits in the span.
  static let largestSize = 64 << 20

  /// The copy kept in `cacheDirectory`, or nil when there is none to read.
  package init?(cacheDirectory: String) {
    guard let contents = (try? AtomicFile.readOwnFile(Self.path(in: cacheDirectory))) ?? nil,
      contents.bytes.count <= Self.largestSize
    else { return nil }
    bytes = contents.bytes
    copies = bytes.withUnsafeBytes(Self.copies(in:))
  }

  /// `<cache>/reads-v3/all.tsv`: beside the files it copies, where no hash-named one can be called so.
  static func path(in cacheDirectory: String) -> String { cacheDirectory + "/reads-v3/all.tsv" }

  /// Where each copy starts (a line that is a `read` record of two fields) and ends (where the next one starts).
  private static func copies(in buffer: UnsafeRawBufferPointer) -> [(root: String, lines: Range<Int>)] {
    var copies: [(root: String, lines: Range<Int>)] = []
    // Every line is looked at by its first bytes only: fields are escaped, so a line that begins `read` and a tab
    // is a `read` record, whatever a commit's text holds.
    var lineStart = 0
    while let lineEnd = StateFile.firstIndex(of: 10, in: buffer, from: lineStart, to: buffer.count) {
      if lineEnd - lineStart > 5, memcmp(buffer.baseAddress! + lineStart, "read\t", 5) == 0 {
        if let last = copies.indices.last { copies[last].lines = copies[last].lines.lowerBound..<lineStart }
        var root: String?
        StateFile.read(buffer: buffer, lines: lineStart..<(lineEnd + 1)) { record in
          if record.count == 2 { root = record.text(1) }
          return false
        }
        if let root { copies.append((root, lineStart..<buffer.count)) }
      }
      lineStart = lineEnd + 1
    }
    return copies
  }

  /// `body` of the bytes and the lines of `root`'s copy, or nil when there is none. `position` is where it likely
  /// is: the copy is made in the order the repositories are read.
  func withRecords<Result>(
    of root: String, position: Int, _ body: (UnsafeRawBufferPointer, Range<Int>) -> Result
  ) -> Result? {
    let index =
      copies.indices.contains(position) && copies[position].root == root
      ? position : copies.firstIndex { $0.root == root }
    guard let index else { return nil }
    return bytes.withUnsafeBytes { body($0, copies[index].lines) }
  }

  /// Makes the copy afresh from the stored reads of `roots`, in that order; a folder without a whole stored read
  /// (none, or one cut short) is left out. Nothing when there is no cache.
  package static func write(roots: [String], cacheDirectory: String?) {
    guard let cacheDirectory else { return }
    var bytes: [UInt8] = []
    for root in roots {
      guard let contents = (try? AtomicFile.readOwnFile(StampedRead.path(in: cacheDirectory, of: root))) ?? nil,
        contents.bytes.starts(with: "read\t".utf8), contents.bytes.suffix(5).elementsEqual("\nend\n".utf8)
      else { continue }
      guard bytes.count + contents.bytes.count <= largestSize else { break }
      bytes += contents.bytes
    }
    let path = path(in: cacheDirectory)
    guard !bytes.isEmpty else {
      unlink(path)
      return
    }
    _ = try? AtomicFile.write(bytes: bytes, to: path, durable: false, unlessChangedFrom: nil, removingOld: true)
  }
}
