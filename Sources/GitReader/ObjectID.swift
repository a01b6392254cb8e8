import CLibgit2
import Support

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A git object id: the 20 bytes, copied out of libgit2. Records keep it as bytes, so the walk compares and
/// hashes ids without ever parsing hex; hex is made only where a person or a file reads it.
public struct ObjectID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
  let raw: git_oid

  init(_ raw: git_oid) { self.raw = raw }

  /// Parses a full 40-digit lower-case hex id; nil for anything else.
  public init?(hex: some StringProtocol) {
    self.init(hexDigits: hex.utf8)
  }

  /// Parses 40 lower-case hex digits given as bytes (ASCII); nil for anything else.
  init?<Digits: Collection<UInt8>>(hexDigits digits: Digits) {
    guard digits.count == 40 else { return nil }
    // Bytes in memory (a cache file's field, a ref file) are read through a pointer: a rebuild parses an id for
    // each of thousands of cached commits, and a collection's indices cost it seven times as much.
    if let parsed = digits.withContiguousStorageIfAvailable({ Self.parse($0) }) {
      guard let parsed else { return nil }
      raw = parsed
      return
    }
    var oid = git_oid()
    var position = digits.startIndex
    let isValid = withUnsafeMutableBytes(of: &oid.id) { bytes -> Bool in
      for index in 0..<20 {
        guard let high = Self.value(ofDigit: digits[position]) else { return false }
        position = digits.index(after: position)
        guard let low = Self.value(ofDigit: digits[position]) else { return false }
        position = digits.index(after: position)
        bytes[index] = high << 4 | low
      }
      return true
    }
    guard isValid else { return nil }
    raw = oid
  }

  /// 40 lower-case hex digits as an id; nil for anything else.
  private static func parse(_ digits: UnsafeBufferPointer<UInt8>) -> git_oid? {
    guard digits.count == 40, let base = digits.baseAddress else { return nil }
    var oid = git_oid()
    // Each digit's value, or 16 and more for any other byte: one test for all forty.
    var invalid: UInt8 = 0
    withUnsafeMutableBytes(of: &oid.id) { bytes in
      for index in 0..<20 {
        let high = nibble(base[2 * index])
        let low = nibble(base[2 * index + 1])
        invalid |= high | low
        bytes[index] = high << 4 | (low & 15)
      }
    }
    return invalid & 0xF0 == 0 ? oid : nil
  }

  /// The value of a lower-case hex digit, or 0xFF for any other byte.
  @inline(__always) private static func nibble(_ byte: UInt8) -> UInt8 {
    let digit = byte &- UInt8(ascii: "0")
    if digit < 10 { return digit }
    let letter = byte &- UInt8(ascii: "a")
    return letter < 6 ? letter + 10 : 0xFF
  }

  private static func value(ofDigit digit: UInt8) -> UInt8? {
    switch digit {
    case 48...57: return digit - 48
    case 97...102: return digit - 87
    default: return nil
    }
  }

  /// The full 40-character hex id.
  public var hex: String { prefix(40) }

  /// The first `length` hex digits (at most 40), as git abbreviates an id: `prefix(7)` in the journal line.
  public func prefix(_ length: Int) -> String {
    let count = min(max(length, 0), 40)
    return withUnsafeBytes(of: raw.id) { bytes in
      String(unsafeUninitializedCapacity: count) { buffer in
        let digits: StaticString = "0123456789abcdef"
        for index in 0..<count {
          let byte = bytes[index / 2]
          buffer[index] = digits.utf8Start[Int(index % 2 == 0 ? byte >> 4 : byte & 15)]
        }
        return count
      }
    }
  }

  public var description: String { hex }

  /// Calls `body` with the id's bytes (20: SHA-1), for a digest that takes the id as it is.
  package func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    withUnsafeBytes(of: raw.id, body)
  }

  public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool { compare(lhs, rhs) == 0 }

  /// Byte order, which is also the order of the hex ids.
  public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool { compare(lhs, rhs) < 0 }

  private static func compare(_ lhs: ObjectID, _ rhs: ObjectID) -> Int32 {
    withUnsafeBytes(of: lhs.raw.id) { left in
      withUnsafeBytes(of: rhs.raw.id) { right in memcmp(left.baseAddress!, right.baseAddress!, 20) }
    }
  }

  /// All 20 bytes, as three words: an id read from another machine's record is not a hash anyone trusts, and ids
  /// made to share their first bytes would otherwise all fall into one bucket. Three words cost less than
  /// `combine(bytes:)` on 20 bytes, and the dictionaries of a rebuild hash ids millions of times.
  public func hash(into hasher: inout Hasher) {
    withUnsafeBytes(of: raw.id) { bytes in
      hasher.combine(bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
      hasher.combine(bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      hasher.combine(bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
    }
  }

  /// Encoded as its 40-character hex string, as git prints it.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(hex)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let id = ObjectID(hex: text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "'\(text)' is not a 40-digit lower-case hex object id")
    }
    self = id
  }
}
