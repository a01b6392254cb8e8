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
    #expect(records() == [["1773144060.0", "ollama http://127.0.0.1:11434", "the server said\t\"busy\" then closed"]])
    let state = try #require(backoff.current(now: now))
    #expect(state.until == now.addingTimeInterval(60) && state.requester == nil)
    #expect(state.reason == "the server said\t\"busy\" then closed")
    #expect(Backoff(stateDirectory: scratch.path("state"), server: "openai http://x").current(now: now) == nil)
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
