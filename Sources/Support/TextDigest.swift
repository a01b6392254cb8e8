/// A 128-bit hash of a text, for a cache that keeps what something was made from and compares it later: two 64-bit
/// lanes with different starts and multipliers, each step mapping one state to one other (an exclusive or, a
/// multiplication by an odd number, a shift folded back in), over a text's length and then its bytes eight at a time.
/// About a byte a cycle, where SHA-1 with collision detection (`ContentHash`) took thirty. Two different texts give
/// one digest by chance only; nothing that decides what a file holds or where it goes rides on it, only whether a
/// cached result is reused.
package enum TextDigest {
  /// The digest of one text, as 32 lowercase hex digits.
  package static func hex(of text: String) -> String {
    var builder = Builder()
    builder.add(text)
    return builder.hex
  }

  /// The digest of a sequence of fields (texts, numbers, bytes of a fixed length), made without joining them into
  /// one text. Each field takes whole words: a text is preceded by its length and its last word padded with zeros,
  /// so that no two sequences of fields hash the same words.
  package struct Builder {
    private var first = TextDigest.firstStart
    private var second = TextDigest.secondStart

    package init() {}

    package mutating func add(_ text: String) {
      // The bytes where they are (a small string's copied out of it): no copy of the text is made.
      var text = text
      add(Int64(text.utf8.count))
      text.withUTF8 { add(bytes: UnsafeRawBufferPointer($0)) }
    }

    package mutating func add(_ number: Int64) {
      mix(UInt64(bitPattern: number))
    }

    package mutating func add(_ flag: Bool) {
      mix(flag ? 1 : 0)
    }

    /// Bytes as they are, for a field of a fixed length (an id) or after its length.
    package mutating func add(bytes: UnsafeRawBufferPointer) {
      var position = 0
      while position + 8 <= bytes.count {
        mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)))
        position += 8
      }
      guard position < bytes.count else { return }
      var last: UInt64 = 0
      var shift: UInt64 = 0
      while position < bytes.count {
        last |= UInt64(bytes[position]) << shift
        shift += 8
        position += 1
      }
      mix(last)
    }

    /// The digest of what was added, as 32 lowercase hex digits.
    package var hex: String {
      TextDigest.hex(
        TextDigest.step(first, 0, TextDigest.firstMultiplier), TextDigest.step(second, 0, TextDigest.secondMultiplier))
    }

    @inline(__always) private mutating func mix(_ word: UInt64) {
      first = TextDigest.step(first, word, TextDigest.firstMultiplier)
      second = TextDigest.step(second, word, TextDigest.secondMultiplier)
    }
  }

  private static let firstStart: UInt64 = 0x243F_6A88_85A3_08D3
  private static let secondStart: UInt64 = 0x1319_8A2E_0370_7344
  private static let firstMultiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
  private static let secondMultiplier: UInt64 = 0xC2B2_AE3D_27D4_EB4F

  @inline(__always) private static func step(_ hash: UInt64, _ word: UInt64, _ multiplier: UInt64) -> UInt64 {
    let product = (hash ^ word) &* multiplier
    return product ^ (product >> 29)
  }

  /// Both lanes as 32 lowercase hex digits, the first lane's first.
  private static func hex(_ first: UInt64, _ second: UInt64) -> String {
    String(unsafeUninitializedCapacity: 32) { buffer in
      let digits: StaticString = "0123456789abcdef"
      for index in 0..<32 {
        let value = index < 16 ? first : second
        buffer[index] = digits.utf8Start[Int((value >> (60 - 4 * UInt64(index % 16))) & 15)]
      }
      return 32
    }
  }
}
