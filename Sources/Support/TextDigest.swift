/// A 128-bit hash of a text, for a cache that keeps what something was made from and compares it later: two 64-bit
/// lanes with different starts and multipliers, each step mapping one state to one other (an exclusive or, a
/// multiplication by an odd number, a shift folded back in), over the text's bytes eight at a time, then its length.
/// About a byte a cycle, where SHA-1 with collision detection (`ContentHash`) took thirty. Two different texts give
/// one digest by chance only; nothing that decides what a file holds or where it goes rides on it, only whether a
/// cached result is reused.
package enum TextDigest {
  /// The digest as 32 lowercase hex digits.
  package static func hex(of text: String) -> String {
    var text = text
    let (first, second) = text.withUTF8 { bytes -> (UInt64, UInt64) in
      var first: UInt64 = 0x243F_6A88_85A3_08D3
      var second: UInt64 = 0x1319_8A2E_0370_7344
      var position = 0
      while position + 8 <= bytes.count {
        let word = UInt64(
          littleEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: position, as: UInt64.self))
        first = step(first, word, 0x9E37_79B9_7F4A_7C15)
        second = step(second, word, 0xC2B2_AE3D_27D4_EB4F)
        position += 8
      }
      var last: UInt64 = 0
      for (index, byte) in bytes[position...].enumerated() { last |= UInt64(byte) << (8 * UInt64(index)) }
      first = step(step(first, last, 0x9E37_79B9_7F4A_7C15), UInt64(bytes.count), 0x9E37_79B9_7F4A_7C15)
      second = step(step(second, last, 0xC2B2_AE3D_27D4_EB4F), UInt64(bytes.count), 0xC2B2_AE3D_27D4_EB4F)
      return (first, second)
    }
    return hex(first) + hex(second)
  }

  @inline(__always) private static func step(_ hash: UInt64, _ word: UInt64, _ multiplier: UInt64) -> UInt64 {
    let product = (hash ^ word) &* multiplier
    return product ^ (product >> 29)
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.utf8.count) + digits
  }
}
