import Testing

@testable import Support

/// The digest a cache keeps of what something was made from: the same text gives the same digest, and a text with
/// any one byte changed, added or taken away gives another.
@Suite struct TextDigestTests {
  @Test func aTextChangedAnywhereDigestsOtherwise() {
    var random = SeededGenerator(seed: 20)
    for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 300] {
      let bytes = (0..<length).map { _ in UInt8.random(in: 32..<127, using: &random) }
      let text = String(decoding: bytes, as: UTF8.self)
      let digest = TextDigest.hex(of: text)
      #expect(digest.utf8.count == 32 && digest.allSatisfy(\.isHexDigit))
      #expect(TextDigest.hex(of: String(decoding: bytes, as: UTF8.self)) == digest)
      var seen: Set<String> = [digest]
      for position in 0..<length {
        var changed = bytes
        changed[position] ^= 1
        seen.insert(TextDigest.hex(of: String(decoding: changed, as: UTF8.self)))
      }
      // A byte added at the end (a zero among them, which the last word's padding would otherwise hide), or removed.
      seen.insert(TextDigest.hex(of: text + "\0"))
      seen.insert(TextDigest.hex(of: text + "a"))
      if length > 0 { seen.insert(TextDigest.hex(of: String(decoding: bytes.dropLast(), as: UTF8.self))) }
      #expect(seen.count == length + 3 + (length > 0 ? 1 : 0), "length \(length)")
    }
  }
}
