import CLibgit2
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Line counts of text files as git's xdiff takes them: a line runs to its line feed, which belongs to it, and
/// a last line without one is a line of its own (so `abc` and `abc\n` are different lines).
enum LineChanges {
  /// Lines of a text.
  static func lineCount(of text: UnsafeRawBufferPointer) -> Int {
    guard let last = text.last else { return 0 }
    let lines = lineFeeds(in: text)
    return last == 10 ? lines : lines + 1
  }

  /// Lines inserted and deleted from `old` to `new` (two different texts), as git's xdiff counts them with git's
  /// defaults (Myers, no whitespace options).
  static func counted(from old: UnsafeRawBufferPointer, to new: UnsafeRawBufferPointer) throws(GitError)
    -> (insertions: Int, deletions: Int)
  {
    let ends = SharedEnds(old, new)
    if let known = withoutDiffing(from: old, to: new, ends: ends) { return known }
    // A text over libgit2's limit makes libgit2 call both sides binary (`patch_generated_update_binary` in libgit2 1.5):
    // no lines, as before, whatever their shared ends.
    if old.count > Self.largestDiffedText || new.count > Self.largestDiffedText { return (0, 0) }
    if let reduced = ReducedTexts(old, new, ends: ends) {
      return try reduced.withTexts { (old, new) throws(GitError) in try xdiff(old, new) }
    }
    return try xdiff(old, new)
  }

  /// libgit2's limit on a diffed text (`GIT_XDIFF_MAX_SIZE`).
  static let largestDiffedText = 1023 << 20

  /// xdiff's counts for the two texts (`gitjournal_count_line_changes`).
  static func xdiff(_ old: UnsafeRawBufferPointer, _ new: UnsafeRawBufferPointer) throws(GitError)
    -> (insertions: Int, deletions: Int)
  {
    // xdiff allocates with libgit2's allocator, which fails every allocation until libgit2 is set up.
    LibGit2.ensureInitialized()
    var insertions = 0
    var deletions = 0
    let result = gitjournal_count_line_changes(
      old.baseAddress?.assumingMemoryBound(to: CChar.self), old.count,
      new.baseAddress?.assumingMemoryBound(to: CChar.self), new.count, &insertions, &deletions)
    if result < 0 {
      throw GitError(
        code: result, function: "xdl_diff",
        message: "could not diff two versions of a file (\(old.count) and \(new.count) bytes)")
    }
    return (insertions, deletions)
  }

  /// The lines two texts share at their start and at their end, which xdiff sets aside before it diffs what is
  /// left between (`xdl_trim_ends`), as byte counts.
  struct SharedEnds {
    let leadingBytes: Int
    let trailingBytes: Int

    init(_ old: UnsafeRawBufferPointer, _ new: UnsafeRawBufferPointer) {
      // The lines shared at the start end at the last line feed among the common leading bytes.
      let common = commonPrefixLength(old, new)
      var leading = common
      while leading > 0 && old[leading - 1] != 10 { leading -= 1 }

      // The lines shared at the end, never reaching into the leading ones (xdiff stops there too), begin at the
      // first line start among the common trailing bytes that is a line start in both texts.
      let suffix = commonSuffixLength(old, new, limit: min(old.count, new.count) - leading)
      var trailing = 0
      if suffix > 0 {
        let (oldStart, newStart) = (old.count - suffix, new.count - suffix)
        if (oldStart == 0 || old[oldStart - 1] == 10) && (newStart == 0 || new[newStart - 1] == 10) {
          trailing = suffix
        } else if let feed = old[oldStart..<(old.count - 1)].firstIndex(of: 10) {
          trailing = old.count - feed - 1
        }
      }
      (leadingBytes, trailingBytes) = (leading, trailing)
    }

    /// What is left of `text` between the shared ends.
    func middle(of text: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(rebasing: text[leadingBytes..<(text.count - trailingBytes)])
    }
  }

  /// Lines inserted and deleted from `old` to `new` (two different texts) when xdiff's answer follows without
  /// running it, else nil.
  ///
  /// When nothing is left between the shared ends on one side, every line left on the other was inserted or
  /// deleted; when one line is left on each, it was replaced (it differs, or it would have been set aside). These
  /// are the commits that add or remove a block, append to a file, or change a one-line file (a minified or
  /// generated file of a megabyte would otherwise be hashed, then scanned again as a changed line). Found with
  /// byte comparisons, at a fraction of the cost of hashing every line.
  static func withoutDiffing(
    from old: UnsafeRawBufferPointer, to new: UnsafeRawBufferPointer, ends: SharedEnds
  ) -> (insertions: Int, deletions: Int)? {
    let (oldLeft, newLeft) = (ends.middle(of: old), ends.middle(of: new))
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

  /// How many bytes the two texts share at their start: 64 bytes at a time with `memcmp`, then eight at a time
  /// (trees use it too, see `Tree.pairEntries`).
  static func commonPrefixLength(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let limit = min(a.count, b.count)
    var index = 0
    if limit >= Self.block, let aStart = a.baseAddress, let bStart = b.baseAddress {
      while index + Self.block <= limit && memcmp(aStart + index, bStart + index, Self.block) == 0 {
        index += Self.block
      }
    }
    while index + 8 <= limit
      && a.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        == b.loadUnaligned(fromByteOffset: index, as: UInt64.self)
    {
      index += 8
    }
    while index < limit && a[index] == b[index] { index += 1 }
    return index
  }

  /// How many bytes, at most `limit`, the two texts share at their end, compared as at their start.
  private static func commonSuffixLength(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, limit: Int) -> Int {
    var length = 0
    if limit >= Self.block, let aStart = a.baseAddress, let bStart = b.baseAddress {
      let (aEnd, bEnd) = (aStart + a.count, bStart + b.count)
      while length + Self.block <= limit
        && memcmp(aEnd - length - Self.block, bEnd - length - Self.block, Self.block) == 0
      {
        length += Self.block
      }
    }
    while length + 8 <= limit
      && a.loadUnaligned(fromByteOffset: a.count - length - 8, as: UInt64.self)
        == b.loadUnaligned(fromByteOffset: b.count - length - 8, as: UInt64.self)
    {
      length += 8
    }
    while length < limit && a[a.count - length - 1] == b[b.count - length - 1] { length += 1 }
    return length
  }

  /// The bytes `memcmp` compares at once when looking for shared starts and ends.
  private static let block = 64

  /// Calls `body` with each line of `text`, its line feed included (the last one may have none).
  static func forEachLine(in text: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
    guard let base = text.baseAddress else { return }
    var start = 0
    while start < text.count {
      let end: Int
      if let feed = memchr(base + start, 10, text.count - start) {
        end = base.distance(to: UnsafeRawPointer(feed)) + 1
      } else {
        end = text.count
      }
      body(UnsafeRawBufferPointer(start: base + start, count: end - start))
      start = end
    }
  }
}
