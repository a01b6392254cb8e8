import Testing

@testable import Support

/// Text found by its UTF-8 bytes, as Foundation's literal search finds it: every occurrence, left to right, without
/// overlaps, in ASCII and beyond.
@Suite struct PlainTextTests {
  @Test(arguments: [
    ("a · b ·  · c", " · ", ["a", "b", "", "c"]), ("a · b · · c", " · ", ["a", "b", "· c"]), ("", ",", [""]),
    (",", ",", ["", ""]), ("abc", "", ["abc"]),
    ("aaaa", "aa", ["", "", ""]), ("zoë, ça", ", ", ["zoë", "ça"]), ("line\r\nnext\r\n", "\r\n", ["line", "next", ""]),
    ("ababa", "aba", ["", "ba"]),
  ])
  func pieces(text: String, separator: String, expected: [String]) {
    #expect(text.pieces(separatedBy: separator) == expected)
  }

  @Test func searchAndReplace() {
    let text = "it’s a test: “quoted” and it’s done"
    #expect(text.replacingEvery("’", with: "'") == "it's a test: “quoted” and it's done")
    #expect(text.contains(text: "quoted") && !text.contains(text: "Quoted") && !text.contains(text: ""))
    let found = text.firstOccurrence(of: "it’s")
    #expect(found.map { text[$0] } == "it’s" && found?.lowerBound == text.startIndex)
    #expect(text.occurrences(of: "it’s").count == 2)
    #expect(text.occurrences(of: " (`").isEmpty && text.firstOccurrence(of: "missing") == nil)
    #expect("a\\b\\".replacingEvery("\\", with: "\\\\") == "a\\\\b\\\\")
    #expect("xx".replacingEvery("x", with: "xx") == "xxxx")
    #expect(
      "checksum=abc -->"[...].firstOccurrence(of: "checksum=").map { "checksum=abc -->"[$0.upperBound...] } == "abc -->"
    )
  }
}
