import Foundation
import Testing

@testable import Support

@Suite struct OneLineTextTests {
  @Test func plainTextIsKept() {
    #expect(
      OneLineText.make("model \"llama3\" not found, try pulling it first")
        == "model \"llama3\" not found, try pulling it first")
    #expect(OneLineText.make("déjà vu — 模型") == "déjà vu — 模型")
  }

  @Test func lineBreaksAndTabsBecomeSpaces() {
    #expect(OneLineText.make("one\ntwo\r\nthree\tfour\u{2028}five") == "one two  three four five")
  }

  @Test func controlsBecomeReplacementCharacters() {
    // An escape sequence would recolour or retitle the user's terminal; a bidirectional control reorders the line.
    #expect(OneLineText.make("\u{1B}]0;owned\u{07}ok") == "\u{FFFD}]0;owned\u{FFFD}ok")
    #expect(OneLineText.make("a\u{0}b\u{7F}c\u{9B}d") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d")
    #expect(OneLineText.make("x\u{202E}y\u{2066}z") == "x\u{FFFD}y\u{FFFD}z")
  }

  @Test func longTextIsCutWithAnEllipsis() {
    #expect(OneLineText.make(String(repeating: "a", count: 10), limit: 10) == String(repeating: "a", count: 10))
    #expect(OneLineText.make(String(repeating: "a", count: 11), limit: 10) == String(repeating: "a", count: 10) + "…")
    #expect(OneLineText.make(String(repeating: "é", count: 5_000)).unicodeScalars.count == 301)
  }
}

@Suite struct LogFileLineTests {
  /// A log line holds what a model server sent: read on a terminal, it stays one line of text.
  @Test func aLoggedLineIsOneSafeLine() throws {
    let scratch = try ScratchDirectory("gitjournal-log")
    let log = LogFile.narrative(stateDirectory: scratch.path("state"))
    log.append(["the server answered 500: \u{1B}[2Jgone\r\nnext", "second"], now: Date(timeIntervalSince1970: 0))
    let text = try String(contentsOfFile: log.path, encoding: .utf8)
    #expect(
      text == "1970-01-01T00:00:00Z the server answered 500: \u{FFFD}[2Jgone  next\n1970-01-01T00:00:00Z second\n")
  }
}
