#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One line of a `StateFile`, read in place: its fields are looked at only when asked for, and only while the
/// reader's callback runs.
package struct StateRecord {
  private let buffer: UnsafeRawBufferPointer
  private let start: Int
  private let end: Int
  /// The positions of the tabs between fields (the reader's buffer, valid while the callback runs).
  private let tabs: UnsafeBufferPointer<Int>

  init(buffer: UnsafeRawBufferPointer, start: Int, end: Int, tabs: UnsafeBufferPointer<Int>) {
    self.buffer = buffer
    self.start = start
    self.end = end
    self.tabs = tabs
  }

  package var count: Int { tabs.count + 1 }

  /// The bytes of field `index` as written (escapes not undone): what ids and numbers are parsed from. Empty
  /// for a field the record does not have.
  package func bytes(_ index: Int) -> Slice<UnsafeRawBufferPointer> {
    guard index >= 0 && index < count else { return buffer[end..<end] }
    let from = index == 0 ? start : tabs[index - 1] + 1
    let to = index == tabs.count ? end : tabs[index]
    return buffer[from..<to]
  }

  /// Field `index` as text, escapes undone, invalid UTF-8 replaced.
  package func text(_ index: Int) -> String {
    let field = bytes(index)
    guard StateFile.firstIndex(of: 92, in: buffer, from: field.startIndex, to: field.endIndex) != nil else {
      return String(decoding: field, as: UTF8.self)
    }
    var unescaped: [UInt8] = []
    unescaped.reserveCapacity(field.count)
    var position = field.startIndex
    while position < field.endIndex {
      var byte = field[position]
      position += 1
      if byte == 92 && position < field.endIndex {
        byte = StateFile.unescaped(field[position])
        position += 1
      }
      unescaped.append(byte)
    }
    return String(decoding: unescaped, as: UTF8.self)
  }

  /// Field `index` as a decimal integer (an optional minus sign and at most 18 digits, nothing else), or nil.
  package func integer(_ index: Int) -> Int64? {
    guard index >= 0 && index < count, let base = buffer.baseAddress else { return nil }
    return Self.number(
      in: base, from: index == 0 ? start : tabs[index - 1] + 1, to: index == tabs.count ? end : tabs[index])
  }

  /// Fields `first` to the last as decimal integers (each as `integer` takes it) into `numbers`; false when the
  /// record does not have exactly `numbers.count` fields from `first` on, or one of them is not such a number.
  /// The hook checks eight for each path it stamps.
  package func integers(from first: Int, into numbers: UnsafeMutableBufferPointer<Int64>) -> Bool {
    guard first >= 0, count - first == numbers.count, !numbers.isEmpty, let base = buffer.baseAddress else {
      return false
    }
    var position = first == 0 ? start : tabs[first - 1] + 1
    for field in 0..<numbers.count {
      let fieldEnd = field == numbers.count - 1 ? end : tabs[first + field]
      guard let value = Self.number(in: base, from: position, to: fieldEnd) else { return false }
      numbers[field] = value
      position = fieldEnd + 1
    }
    return true
  }

  /// The bytes `from..<to` of `base` as an optional minus sign and 1 to 18 digits, or nil. Each byte is loaded
  /// once, without the bounds checks of a slice.
  private static func number(in base: UnsafeRawPointer, from: Int, to end: Int) -> Int64? {
    var position = from
    let isNegative = position < end && base.load(fromByteOffset: position, as: UInt8.self) == UInt8(ascii: "-")
    if isNegative { position += 1 }
    guard end - position > 0 && end - position <= 18 else { return nil }
    var value: Int64 = 0
    while position < end {
      let digit = base.load(fromByteOffset: position, as: UInt8.self) &- 48
      guard digit <= 9 else { return nil }
      value = value &* 10 &+ Int64(digit)
      position &+= 1
    }
    return isNegative ? 0 &- value : value
  }

  /// Whether field `index` holds exactly `expected`'s bytes (escapes not undone).
  package func field(_ index: Int, is expected: StaticString) -> Bool {
    let field = UnsafeRawBufferPointer(rebasing: bytes(index))
    guard field.count == expected.utf8CodeUnitCount else { return false }
    guard let base = field.baseAddress else { return true }
    return memcmp(base, expected.utf8Start, field.count) == 0
  }

  /// Whether field `index`, escapes undone, is `text`, compared byte for byte (a path is its bytes).
  package func field(_ index: Int, equals text: String) -> Bool {
    if isEscaped(index) { return self.text(index).utf8.elementsEqual(text.utf8) }
    let field = UnsafeRawBufferPointer(rebasing: bytes(index))
    let same = text.utf8.withContiguousStorageIfAvailable { utf8 in
      utf8.count == field.count && (field.isEmpty || memcmp(field.baseAddress!, utf8.baseAddress!, field.count) == 0)
    }
    return same ?? field.elementsEqual(text.utf8)
  }

  /// Whether the whole line, fields, tabs and escapes as written, is `line`: a record that `StateFile.bytes` would
  /// write for the same fields. (A line that escapes a byte it need not is not that line: a stricter check.)
  package func hasBytes(_ line: [UInt8]) -> Bool {
    end - start == line.count
      && line.withUnsafeBytes { line in
        line.isEmpty || memcmp(buffer.baseAddress! + start, line.baseAddress!, line.count) == 0
      }
  }

  /// Whether any field holds a backslash: one look at the whole line, where a record of many fields (a repository's
  /// fifteen stamped paths) would otherwise be searched field by field.
  package var hasEscapes: Bool { StateFile.firstIndex(of: 92, in: buffer, from: start, to: end) != nil }

  /// Whether field `index` holds a backslash, that is, an escape.
  package func isEscaped(_ index: Int) -> Bool {
    let field = bytes(index)
    return StateFile.firstIndex(of: 92, in: buffer, from: field.startIndex, to: field.endIndex) != nil
  }
}
