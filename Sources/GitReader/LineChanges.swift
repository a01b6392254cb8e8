import Foundation
import Support

/// Line counts of text files as git's xdiff takes them: a line runs to its line feed, which belongs to it, and
/// a last line without one is a line of its own (so `abc` and `abc\n` are different lines).
enum LineChanges {
  /// Lines of a text.
  static func lineCount(of text: UnsafeRawBufferPointer) -> Int {
    guard let last = text.last else { return 0 }
    let lines = lineFeeds(in: text)
    return last == 10 ? lines : lines + 1
  }

  /// Lines inserted and deleted from `old` to `new` (two different texts) when xdiff's answer follows without
  /// running it, else nil.
  ///
  /// xdiff first sets aside the lines both texts share at their start, then at their end, and diffs only what
  /// is left between. When nothing is left on one side, every line left on the other was inserted or deleted;
  /// when one line is left on each, it was replaced (it differs, or it would have been set aside). These are
  /// the commits that add or remove a block, append to a file, or change a one-line file (a minified or
  /// generated file of a megabyte would otherwise be hashed, then scanned again as a changed line). Found
  /// with byte comparisons, at a fraction of the cost of hashing every line.
  static func withoutDiffing(from old: UnsafeRawBufferPointer, to new: UnsafeRawBufferPointer)
    -> (insertions: Int, deletions: Int)?
  {
    // The lines shared at the start end at the last line feed among the common leading bytes.
    let common = commonPrefixLength(old, new)
    let leadingBytes = old[..<common].lastIndex(of: 10).map { $0 + 1 } ?? 0

    // The lines shared at the end, never reaching into the leading ones (xdiff stops there too), begin at the
    // first line start among the common trailing bytes that is a line start in both texts.
    let suffix = commonSuffixLength(old, new, limit: min(old.count, new.count) - leadingBytes)
    var trailingBytes = 0
    if suffix > 0 {
      let (oldStart, newStart) = (old.count - suffix, new.count - suffix)
      if (oldStart == 0 || old[oldStart - 1] == 10) && (newStart == 0 || new[newStart - 1] == 10) {
        trailingBytes = suffix
      } else if let feed = old[oldStart..<(old.count - 1)].firstIndex(of: 10) {
        trailingBytes = old.count - feed - 1
      }
    }

    let oldLeft = UnsafeRawBufferPointer(rebasing: old[leadingBytes..<(old.count - trailingBytes)])
    let newLeft = UnsafeRawBufferPointer(rebasing: new[leadingBytes..<(new.count - trailingBytes)])
    if oldLeft.isEmpty || newLeft.isEmpty {
      return (insertions: lineCount(of: newLeft), deletions: lineCount(of: oldLeft))
    }
    if isOneLine(oldLeft) && isOneLine(newLeft) { return (insertions: 1, deletions: 1) }
    return nil
  }

  /// No line feed before the last byte.
  private static func isOneLine(_ text: UnsafeRawBufferPointer) -> Bool {
    guard let start = text.baseAddress, !text.isEmpty else { return false }
    return memchr(start, 10, text.count - 1) == nil
  }

  private static func lineFeeds(in text: UnsafeRawBufferPointer) -> Int {
    var count = 0
    for byte in text where byte == 10 { count &+= 1 }
    return count
  }

  /// How many bytes the two texts share at their start, compared eight at a time (trees use it too, see
  /// `Tree.pairEntries`).
  static func commonPrefixLength(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let limit = min(a.count, b.count)
    var index = 0
    while index + 8 <= limit
      && a.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        == b.loadUnaligned(fromByteOffset: index, as: UInt64.self)
    {
      index += 8
    }
    while index < limit && a[index] == b[index] { index += 1 }
    return index
  }

  /// How many bytes, at most `limit`, the two texts share at their end.
  private static func commonSuffixLength(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, limit: Int) -> Int {
    var length = 0
    while length + 8 <= limit
      && a.loadUnaligned(fromByteOffset: a.count - length - 8, as: UInt64.self)
        == b.loadUnaligned(fromByteOffset: b.count - length - 8, as: UInt64.self)
    {
      length += 8
    }
    while length < limit && a[a.count - length - 1] == b[b.count - length - 1] { length += 1 }
    return length
  }
}
