#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Two texts for xdiff that are smaller than the two versions of a file, and that xdiff counts exactly as it
/// counts them.
///
/// A commit usually changes a few lines of a long file. xdiff hashes every line of both versions, sets aside the
/// lines they share at their start and end (`LineChanges.SharedEnds`), and diffs only the middles. What the shared
/// lines still decide is small, and all of it is kept here (xdiff's `xdl_cleanup_records`, the same in git):
/// - how many lines each version has: a middle line that occurs at least about sqrt(lines) times in the other
///   version may be left out of the diff (capped at 1,024);
/// - how often each middle line occurs in the other version, shared lines included: a line that never occurs
///   there is changed for certain.
///
/// So each version becomes one shared block followed by its middle. The block holds every shared line that is also
/// a middle line, as it is, and one short "filler" line, found in neither middle, for each other shared line. Line
/// counts and every middle line's occurrences stay as they were, the block is set aside whole (it is the same in
/// both texts, and the middles still differ in their first and last lines), and xdiff diffs the same middles with
/// the same choices. Where the shared lines stand does not matter: they are set aside either way, and xdiff
/// only slides a change into them when settling its position, which keeps the counts of changed lines.
///
/// Fillers are then dropped while each text's count of lines keeps the same approximate square root
/// (`xdl_bogosqrt`: 2 to the number of its base-4 digits), as long as the cap does not apply. The middle lines are
/// hashed once here to find them in the shared lines; a shared line costs a line-feed search and a table probe
/// instead of xdiff's hashing and classifying. `LineChangesTests` compares the counts with git's.
struct ReducedTexts {
  private let block: [UInt8]
  private let oldMiddle: UnsafeRawBufferPointer
  private let newMiddle: UnsafeRawBufferPointer

  /// nil when reducing would not pay: the shared lines are under a quarter of the middles' bytes. The middles are
  /// hashed here and again by xdiff, but hashing them here costs about a tenth of what xdiff's hashing does.
  init?(_ old: UnsafeRawBufferPointer, _ new: UnsafeRawBufferPointer, ends: LineChanges.SharedEnds) {
    oldMiddle = ends.middle(of: old)
    newMiddle = ends.middle(of: new)
    let sharedBytes = ends.leadingBytes + ends.trailingBytes
    guard sharedBytes > 0, 4 * sharedBytes >= oldMiddle.count + newMiddle.count else { return nil }

    var middleLines = MiddleLines(capacity: Self.lineEstimate(oldMiddle) + Self.lineEstimate(newMiddle))
    let oldMiddleLines = middleLines.insertLines(of: oldMiddle)
    let newMiddleLines = middleLines.insertLines(of: newMiddle)
    guard let filler = middleLines.fillerLine() else { return nil }

    // The shared lines are the same bytes in both texts: old's are read.
    let leading = UnsafeRawBufferPointer(rebasing: old[..<ends.leadingBytes])
    let trailing = UnsafeRawBufferPointer(rebasing: old[(old.count - ends.trailingBytes)...])
    var block: [UInt8] = []
    var sharedLines = 0
    var fillers = 0
    for shared in [leading, trailing] {
      LineChanges.forEachLine(in: shared) { line in
        sharedLines += 1
        // Only the last line of a text can lack a line feed, and no middle line then does: it is a filler.
        if line.last == 10 && middleLines.contains(line) {
          block.append(contentsOf: line)
        } else {
          fillers += 1
        }
      }
    }
    let droppable = min(
      Self.droppableLines(of: sharedLines + oldMiddleLines), Self.droppableLines(of: sharedLines + newMiddleLines))
    for _ in 0..<(fillers - min(fillers, droppable)) { block.append(contentsOf: filler) }
    self.block = block
  }

  /// Calls `body` with the two reduced texts, the block then each middle, laid out in one allocation.
  func withTexts<T, E: Error>(
    _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(E) -> T
  ) throws(E) -> T {
    let oldCount = block.count + oldMiddle.count
    let text = UnsafeMutableRawBufferPointer.allocate(byteCount: oldCount + block.count + newMiddle.count, alignment: 8)
    defer { text.deallocate() }
    block.withUnsafeBytes { block in
      var end = 0
      for part in [block, oldMiddle, block, newMiddle] {
        UnsafeMutableRawBufferPointer(rebasing: text[end..<(end + part.count)]).copyMemory(from: part)
        end += part.count
      }
    }
    let all = UnsafeRawBufferPointer(text)
    return try body(
      UnsafeRawBufferPointer(rebasing: all[..<oldCount]), UnsafeRawBufferPointer(rebasing: all[oldCount...]))
  }

  /// How many of a text's `lines` can go while xdiff's limit on a line's occurrences stays the same: its
  /// approximate square root of the count, `xdl_bogosqrt` (2 to the number of base-4 digits), at most 1,024.
  static func droppableLines(of lines: Int) -> Int {
    // 4^9 lines and more all give the cap.
    let capped = 1 << 18
    if lines >= capped { return lines - capped }
    var lowest = 1
    while lowest * 4 <= lines { lowest *= 4 }
    return max(0, lines - lowest)
  }

  /// A guess at a text's distinct lines that costs nothing to find; the table grows when there are more. A table
  /// sized for every line of a large middle would cost more to clear than to grow.
  private static func lineEstimate(_ text: UnsafeRawBufferPointer) -> Int { text.count / 64 + 1 }
}

/// The distinct lines of both middles, found by their bytes: an open-addressing table of where each line is.
private struct MiddleLines {
  private struct Slot {
    var start: UnsafeRawPointer?
    var count = 0
    var hash: UInt64 = 0
  }
  private var slots: [Slot]
  private var used = 0

  init(capacity lines: Int) {
    var size = 16
    while size < 2 * lines { size *= 2 }
    slots = Array(repeating: Slot(), count: size)
  }

  /// Adds each line of `text`; how many lines it has.
  mutating func insertLines(of text: UnsafeRawBufferPointer) -> Int {
    var lines = 0
    LineChanges.forEachLine(in: text) { line in
      lines += 1
      insert(line)
    }
    return lines
  }

  func contains(_ line: UnsafeRawBufferPointer) -> Bool {
    let hash = Self.hash(line)
    var index = Int(truncatingIfNeeded: hash) & (slots.count - 1)
    while let start = slots[index].start {
      if slots[index].hash == hash && slots[index].count == line.count
        && memcmp(start, line.baseAddress!, line.count) == 0
      {
        return true
      }
      index = (index + 1) & (slots.count - 1)
    }
    return false
  }

  /// A line of one byte and a line feed that no middle has.
  func fillerLine() -> [UInt8]? {
    for byte in UInt8(0x21)...UInt8(0xFF) {
      let line: [UInt8] = [byte, 10]
      if !line.withUnsafeBytes({ contains($0) }) { return line }
    }
    return nil
  }

  private mutating func insert(_ line: UnsafeRawBufferPointer) {
    if 2 * (used + 1) > slots.count { grow() }
    let hash = Self.hash(line)
    var index = Int(truncatingIfNeeded: hash) & (slots.count - 1)
    while let start = slots[index].start {
      if slots[index].hash == hash && slots[index].count == line.count
        && memcmp(start, line.baseAddress!, line.count) == 0
      {
        return
      }
      index = (index + 1) & (slots.count - 1)
    }
    slots[index] = Slot(start: line.baseAddress, count: line.count, hash: hash)
    used += 1
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: Slot(), count: old.count * 2)
    for slot in old where slot.start != nil {
      var index = Int(truncatingIfNeeded: slot.hash) & (slots.count - 1)
      while slots[index].start != nil { index = (index + 1) & (slots.count - 1) }
      slots[index] = slot
    }
  }

  /// A line's hash, eight bytes at a time.
  private static func hash(_ line: UnsafeRawBufferPointer) -> UInt64 {
    var hash = UInt64(truncatingIfNeeded: line.count) &* 0x9E37_79B9_7F4A_7C15
    var index = 0
    while index + 8 <= line.count {
      hash = (hash ^ line.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
      hash ^= hash >> 31
      index += 8
    }
    var tail: UInt64 = 0
    while index < line.count {
      tail = tail << 8 | UInt64(line[index])
      index += 1
    }
    hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
    return hash ^ (hash >> 29)
  }
}
