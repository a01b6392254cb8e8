/// One line of a `StateFile`, read in place: its fields are looked at only when asked for, and only while the
/// reader's callback runs.
package struct StateRecord {
  private let buffer: UnsafeRawBufferPointer
  private let start: Int
  private let end: Int
  /// The positions of the tabs between fields.
  private let tabs: [Int]

  init(buffer: UnsafeRawBufferPointer, start: Int, end: Int, tabs: [Int]) {
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
        switch field[position] {
        case UInt8(ascii: "t"): byte = 9
        case UInt8(ascii: "n"): byte = 10
        case UInt8(ascii: "r"): byte = 13
        default: byte = field[position]
        }
        position += 1
      }
      unescaped.append(byte)
    }
    return String(decoding: unescaped, as: UTF8.self)
  }

  /// Field `index` as a decimal integer (an optional minus sign and at most 18 digits, nothing else), or nil.
  package func integer(_ index: Int) -> Int64? {
    let field = bytes(index)
    var position = field.startIndex
    let isNegative = position < field.endIndex && field[position] == UInt8(ascii: "-")
    if isNegative { position += 1 }
    let digits = field.endIndex - position
    guard digits > 0 && digits <= 18 else { return nil }
    var value: Int64 = 0
    while position < field.endIndex {
      let digit = field[position]
      guard digit >= 48 && digit <= 57 else { return nil }
      value = value * 10 + Int64(digit - 48)
      position += 1
    }
    return isNegative ? -value : value
  }
}
