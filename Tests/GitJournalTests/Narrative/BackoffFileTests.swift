import Foundation
import Testing

@testable import Narrative
@testable import Support

/// The pause file is one `StateFile` record, read and written through the codec the caches use.
@Suite struct BackoffFileTests {
  let scratch: ScratchDirectory
  let backoff: Backoff
  let now = Date(timeIntervalSince1970: 1_773_144_000)

  init() throws {
    scratch = try ScratchDirectory("gitjournal-backoff")
    backoff = Backoff(stateDirectory: scratch.path("state"), server: "ollama http://127.0.0.1:11434")
  }

  func records() -> [[String]] {
    var records: [[String]] = []
    StateFile.read(backoff.path) { record in
      records.append((0..<record.count).map { record.text($0) })
      return true
    }
    return records
  }

  @Test func aPauseIsOneRecordAndReadsBackWhole() throws {
    backoff.pause(for: 60, reason: "the server said\t\"busy\"\nthen closed", now: now)
    #expect(records() == [["1773144060.0", "ollama http://127.0.0.1:11434", "the server said \"busy\" then closed"]])
    let state = try #require(backoff.current(now: now))
    #expect(state.until == now.addingTimeInterval(60) && state.requester == nil)
    #expect(state.reason == "the server said \"busy\" then closed")
    #expect(Backoff(stateDirectory: scratch.path("state"), server: "openai http://x").current(now: now) == nil)
  }

  /// A server's error answer becomes one line of at most 200 characters before it reaches a reason or the log.
  @Test func aServersErrorMessageIsOneBoundedLine() {
    let hostile = #"{"error": "\u001b[2J\u001b]0;owned\u0007cleared\nyour screen"}"#
    #expect(
      JSONEndpoint.errorMessage(in: Data(hostile.utf8)) == "\u{FFFD}[2J\u{FFFD}]0;owned\u{FFFD}cleared your screen")
    let long = #"{"error": {"message": ""# + String(repeating: "x", count: 10_000) + #""}}"#
    #expect(JSONEndpoint.errorMessage(in: Data(long.utf8)) == String(repeating: "x", count: 200) + "…")
    #expect(JSONEndpoint.errorMessage(in: Data("<html>\r\n\u{1B}[0m".utf8)) == "<html>  \u{FFFD}[0m")
  }

  /// `doctor` and `rebuild` print the reason: whoever wrote the file, it reads back as one line a terminal shows
  /// as text, escape sequences and all.
  @Test func aReasonReadsBackAsOneSafeLine() throws {
    try StateFile.write(
      [["1773144060.0", "ollama http://127.0.0.1:11434", "red \u{1B}[31mtext\r\nand \u{202E}more"]], to: backoff.path)
    let state = try #require(backoff.current(now: now))
    #expect(state.reason == "red \u{FFFD}[31mtext  and \u{FFFD}more")
  }

  @Test func aRequestMarkCarriesTheProcessAndIsNoPauseWhileItLives() throws {
    backoff.markRequest(for: 60, now: now)
    let record = try #require(records().first)
    #expect(record.count == 4 && record[3] == String(getpid()))
    #expect(backoff.current(now: now) == nil, "this process is alive: its own mark is no pause")
    backoff.endRequest()
    #expect(!FileManager.default.fileExists(atPath: backoff.path))
  }

  /// What an older gitjournal wrote (one field per line) is no pause rather than a misread one.
  @Test func theOldLineFormatIsNoPause() throws {
    try scratch.write("1773144060.0\nollama http://127.0.0.1:11434\nold failure\n", to: "state/narrative-backoff")
    #expect(backoff.current(now: now) == nil)
  }
}
