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

/// A digest of fields: every byte of every field counts, short texts (kept inside the string) as much as long ones,
/// and where one field ends and the next begins counts too.
@Suite struct TextDigestBuilderTests {
  private func digest(_ fields: [String], number: Int64 = 0) -> String {
    var builder = TextDigest.Builder()
    for field in fields { builder.add(field) }
    builder.add(number)
    return builder.hex
  }

  @Test func everyByteOfEveryFieldCounts() {
    var random = SeededGenerator(seed: 21)
    for length in [0, 1, 5, 7, 8, 9, 15, 16, 17, 40] {
      let bytes = (0..<length).map { _ in UInt8.random(in: 32..<127, using: &random) }
      let text = String(decoding: bytes, as: UTF8.self)
      let fields = ["a", text, "tail"]
      let original = digest(fields)
      #expect(digest(fields) == original)
      var seen: Set<String> = [original]
      for position in 0..<length {
        var changed = bytes
        changed[position] ^= 1
        seen.insert(digest(["a", String(decoding: changed, as: UTF8.self), "tail"]))
      }
      #expect(seen.count == length + 1, "length \(length)")
      #expect(digest(fields, number: 1) != original)
    }
  }

  @Test func fieldBoundariesCount() {
    let digests: Set<String> = [
      digest(["ab", "c"]), digest(["a", "bc"]), digest(["abc"]), digest(["abc", ""]), digest(["", "abc"]),
      digest(["abcdefgh", "ijklmnop"]), digest(["abcdefghijklmnop"]),
    ]
    #expect(digests.count == 7)
  }
}
