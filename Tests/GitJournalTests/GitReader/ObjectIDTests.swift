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

  @Test func prefixesAreClampedToTheId() {
    let id = ObjectID.repeating("f")
    #expect(id.prefix(0) == "")
    #expect(id.prefix(12) == String(repeating: "f", count: 12))
    #expect(id.prefix(99) == id.hex)
    #expect(id.prefix(-1) == "")
  }
}
