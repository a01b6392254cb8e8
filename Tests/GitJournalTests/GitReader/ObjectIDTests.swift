import Foundation
import Testing

@testable import GitReader

/// Commit ids are kept as their 20 bytes; hex is only how they are read and written.
@Suite struct ObjectIDTests {
  /// The ids of a real repository survive hex, JSON and back, and order as their hex does.
  @Test func realIdsRoundTripThroughHexAndJSON() throws {
    let repository = try TemporaryRepository()
    for index in 0..<20 {
      try repository.emptyCommit(message: "Commit \(index)", date: "2026-03-10T09:\(10 + index):00Z")
    }
    let logged = try repository.git("rev-list", "HEAD").split(separator: "\n").map(String.init)
    let ids = try logged.map { try #require(ObjectID(hex: $0)) }
    #expect(ids.map(\.hex) == logged)
    #expect(ids.sorted().map(\.hex) == logged.sorted(), "byte order is hex order")
    #expect(ids.map { $0.prefix(7) } == logged.map { String($0.prefix(7)) })

    let json = try JSONEncoder().encode(ids)
    #expect(String(decoding: json, as: UTF8.self) == "[" + logged.map { "\"\($0)\"" }.joined(separator: ",") + "]")
    #expect(try JSONDecoder().decode([ObjectID].self, from: json) == ids)
    #expect(Set(ids).count == ids.count)
  }

  @Test(arguments: [
    "", "abc", String(repeating: "a", count: 39), String(repeating: "a", count: 41),
    String(repeating: "A", count: 40), String(repeating: "g", count: 40), String(repeating: "a", count: 39) + " ",
  ])
  func anythingButFortyLowerCaseHexDigitsIsRefused(text: String) throws {
    #expect(ObjectID(hex: text) == nil)
    let json = Data(("\"" + text + "\"").utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(ObjectID.self, from: json) }
  }

  /// Every byte at a few positions: a lower-case hex digit is taken as its value, anything else refuses the id, read
  /// from bytes in memory (through a pointer) and from any other collection alike.
  @Test func everyByteIsJudgedAsAHexDigitOrNot() {
    let digits = Array("0123456789abcdef".utf8)
    let valid = Array("00112233445566778899aabbccddeeff01234567".utf8)
    for position in [0, 1, 2, 19, 20, 38, 39] {
      for byte in 0...255 as ClosedRange<UInt8> {
        var bytes = valid
        bytes[position] = byte
        let fromMemory = ObjectID(hexDigits: bytes)
        let fromCollection = ObjectID(hexDigits: bytes.lazy.map { $0 })
        #expect(fromMemory == fromCollection, "byte \(byte) at \(position)")
        if digits.contains(byte) {
          #expect(fromMemory?.hex == String(decoding: bytes, as: UTF8.self), "byte \(byte) at \(position)")
        } else {
          #expect(fromMemory == nil, "byte \(byte) at \(position)")
        }
      }
    }
  }

  @Test func prefixesAreClampedToTheId() {
    let id = ObjectID.repeating("f")
    #expect(id.prefix(0) == "")
    #expect(id.prefix(12) == String(repeating: "f", count: 12))
    #expect(id.prefix(99) == id.hex)
    #expect(id.prefix(-1) == "")
  }
}
