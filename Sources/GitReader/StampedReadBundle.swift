import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A copy of the stored reads (see `StampedRead`) of many repositories in one file, `<cache>/reads-v4/all.tsv`,
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
  /// Each copy's folder as its `read` record holds it (see `withRecords`) and its lines, in `bytes`, in file order.
  private let copies: [(root: Range<Int>, lines: Range<Int>)]

  /// The most the file may hold: about 3 KB for each quiet repository, more for one with many commits in the span.
  static let largestSize = 64 << 20

  /// The copy kept in `cacheDirectory`, or nil when there is none to read.
  package init?(cacheDirectory: String) {
    guard let contents = (try? AtomicFile.readOwnFile(Self.path(in: cacheDirectory), largest: Self.largestSize)) ?? nil
    else { return nil }
    bytes = contents.bytes
    copies = bytes.withUnsafeBytes(Self.copies(in:))
  }

  /// `<cache>/reads-v4/all.tsv`: beside the files it copies, where no hash-named one can be called so.
  static func path(in cacheDirectory: String) -> String { cacheDirectory + "/reads-v4/all.tsv" }

  /// Each copy follows a line `copy`, a tab and its length in bytes: the copies are found without a look at their
  /// lines, which cost a hook about 700 instructions a repository. A copy that does not begin with a `read` record
  /// (an empty one, for a folder without a stored read) answers for no folder but keeps its place; from a line that
  /// is not such a header, or a length past the end of the file, on, there are no copies.
  private static func copies(in buffer: UnsafeRawBufferPointer) -> [(root: Range<Int>, lines: Range<Int>)] {
    var copies: [(root: Range<Int>, lines: Range<Int>)] = []
    var position = 0
    while position < buffer.count {
      // At most eight digits: no length can reach `largestSize` (64 MiB, eight digits).
      guard
        let headerEnd = StateFile.firstIndex(of: 10, in: buffer, from: position, to: min(buffer.count, position + 14)),
        headerEnd - position > 5, memcmp(buffer.baseAddress! + position, "copy\t", 5) == 0
      else { break }
      var length = 0
      for digit in buffer[(position + 5)..<headerEnd] {
        guard digit >= 48 && digit <= 57 else { return copies }
        length = length * 10 + Int(digit - 48)
      }
      let start = headerEnd + 1
      guard length <= buffer.count - start else { break }
      let end = start + length
      if length > 5, memcmp(buffer.baseAddress! + start, "read\t", 5) == 0,
        let readEnd = StateFile.firstIndex(of: 10, in: buffer, from: start, to: end)
      {
        copies.append(((start + 5)..<readEnd, start..<end))
      } else {
        // No copy (a folder without a stored read when the bundle was made), kept in its place: the copies after
        // it are still where the repositories' order says.
        copies.append((start..<start, start..<end))
      }
      position = end
    }
    return copies
  }

  /// `body` of the bytes and the lines of `root`'s copy, or nil when there is none. `position` is where it likely
  /// is: the copy is made in the order the repositories are read.
  ///
  /// The folder is compared with the bytes of the copy's `read` record as they are: a folder whose name holds a
  /// character that a field escapes (a tab, a backslash) finds no copy, and is read from its own file. A copy
  /// found is only a candidate: `StampedRead` checks its `read` record field by field.
  func withRecords<Result>(
    of root: String, position: Int, _ body: (UnsafeRawBufferPointer, Range<Int>) -> Result
  ) -> Result? {
    var root = root
    return root.withUTF8 { folder in
      bytes.withUnsafeBytes { buffer in
        func isCopy(_ index: Int) -> Bool {
          let range = copies[index].root
          return range.count == folder.count
            && memcmp(buffer.baseAddress! + range.lowerBound, folder.baseAddress!, folder.count) == 0
        }
        guard !folder.isEmpty,
          let index = copies.indices.contains(position) && isCopy(position)
            ? position : copies.indices.first(where: isCopy)
        else { return nil }
        return body(buffer, copies[index].lines)
      }
    }
  }

  /// Makes the copy afresh from the stored reads of `roots`, in that order; a folder without a whole stored read
  /// (none, or one cut short) has an empty copy. Nothing when there is no cache.
  ///
  /// Anything but a file in the bundle's place is not read (see `init`): a symlink there is removed, not written
  /// through, and for a folder there the bundle is not made, rather than made again at every reading.
  package static func write(roots: [String], cacheDirectory: String?) {
    guard let cacheDirectory else { return }
    let path = path(in: cacheDirectory)
    var info = stat()
    if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
      guard (info.st_mode & S_IFMT) == S_IFLNK, unlink(path) == 0 else { return }
    }
    var bytes: [UInt8] = []
    var copies = 0
    // Room kept for an empty copy of every folder.
    let reserve = 8 * roots.count
    for root in roots {
      var copy: [UInt8] = []
      if let contents = (try? AtomicFile.readOwnFile(StampedRead.path(in: cacheDirectory, of: root))) ?? nil,
        contents.bytes.starts(with: "read\t".utf8), contents.bytes.suffix(5).elementsEqual("\nend\n".utf8)
      {
        copy = contents.bytes
      }
      let header = Array("copy\t\(copy.count)\n".utf8)
      // A copy that would pass the largest size is left out (an empty one in its place), the others are kept.
      if bytes.count + header.count + copy.count + reserve > largestSize { copy = [] }
      bytes += copy.isEmpty ? Array("copy\t0\n".utf8) : header
      bytes += copy
      if !copy.isEmpty { copies += 1 }
    }
    removeEarlierFormats(in: cacheDirectory)
    guard copies > 0 else {
      unlink(path)
      return
    }
    _ = try? AtomicFile.write(bytes: bytes, to: path, durable: false, unlessChangedFrom: nil, removingOld: true)
  }

  /// The folders of stored reads in the formats before this one (`reads-v1` to `reads-v3`), which nothing reads:
  /// their files (`.tsv`, the only ones gitjournal made there) and then the folders, when nothing else is left in
  /// them. Here because the bundle is made seldom, and by a hook with many repositories, which made most of them.
  static func removeEarlierFormats(in cacheDirectory: String) {
    for version in 1...3 {
      let folder = cacheDirectory + "/reads-v\(version)"
      for name in FolderListing.allNames(in: folder) ?? [] where name.hasSuffix(".tsv") { unlink(folder + "/" + name) }
      rmdir(folder)
    }
  }
}
