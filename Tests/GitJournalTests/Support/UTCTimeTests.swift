import Foundation
import Testing

@testable import Support

/// `UTCTime` replaces Foundation's `ISO8601DateFormatter` for the logs and the config's `retired` values: it
/// must write and read what the formatter writes and reads, and refuse what it refuses or cannot mean a time.
@Suite struct UTCTimeTests {
  @Test func writesAndReadsAsFoundationsFormatterDoes() {
    let formatter = ISO8601DateFormatter()
    var random = SeededGenerator(seed: 0x7574_6374)
    // Leap days, the turns of years and centuries, and random seconds from 1970 to 2200.
    let fixed: [Int64] = [0, 59, 951_782_400, 951_868_799, 1_709_164_800, 4_107_542_400, 1_767_225_599, 1_767_225_600]
    for seconds in fixed + (0..<2_000).map({ _ in Int64.random(in: 0...7_258_118_400, using: &random) }) {
      let date = Date(timeIntervalSince1970: TimeInterval(seconds))
      let written = UTCTime.format(seconds)
      #expect(written == formatter.string(from: date), "\(seconds)")
      #expect(UTCTime.parse(written[...]) == seconds, "\(written)")
    }
    for text in ["2026-12-01T10:30:00+01:00", "2026-12-01T04:00:00-05:30", "2026-12-01T09:30:00+00:00"] {
      let expected = formatter.date(from: text).map { Int64($0.timeIntervalSince1970) }
      #expect(expected != nil && UTCTime.parse(text[...]) == expected, "\(text)")
    }
  }

  @Test func refusesWhatIsNoTime() {
    for text in [
      "", "2026-12-01", "2026-12-01T09:30Z", "2026-12-01 09:30:00Z", "2026-13-01T09:30:00Z", "2026-02-29T09:30:00Z",
      "2026-04-31T00:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T09:60:00Z", "2026-12-01T09:30:60Z",
      "2026-12-01T09:30:00", "2026-12-01T09:30:00+0100", "2026-12-01T09:30:00+25:00", "+026-12-01T09:30:00Z",
      "2026-12-01T09:30:00.5Z", "２０２６-12-01T09:30:00Z",
    ] {
      #expect(UTCTime.parse(text[...]) == nil, "\(text)")
    }
    #expect(UTCTime.parse("2028-02-29T12:00:00Z") != nil, "a leap day")
  }
}
