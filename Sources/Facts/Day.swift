import GitReader
import Support

/// A calendar day of the journal, `YYYY-MM-DD`. Which instants belong to it is `JournalCalendar`'s business.
public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
  public let year: Int
  public let month: Int
  public let day: Int

  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// One number for the three fields (equal days give equal numbers): days are the keys of a rebuild's tables, looked
  /// up tens of thousands of times, and hashing three numbers cost three times one.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(year &<< 9 | (month & 15) &<< 5 | (day & 31))
  }

  /// Parses exactly `YYYY-MM-DD` with a real month and day.
  public init?(iso text: String) {
    // Read as bytes: records, caches and file names give a rebuild thousands of days to parse.
    var text = text
    guard let day = text.withUTF8({ Self.parseISO(UnsafeRawBufferPointer($0)) }) else { return nil }
    self = day
  }

  /// The day a file named `YYYY-MM-DD<suffix>` (`2026-12-02.md`) is named after; nil for any other name. Read as
  /// bytes: a rebuild lists a folder with a file for every day of a long history, and a name's characters cost
  /// it thousands of instructions each.
  public init?(fileName name: String, suffix: String) {
    let bytes = name.utf8
    let ending = suffix.utf8
    guard bytes.count == 10 + ending.count, bytes.suffix(ending.count).elementsEqual(ending),
      let day = Day(iso: String(decoding: bytes.prefix(10), as: UTF8.self))
    else { return nil }
    self = day
  }

  /// `YYYY-MM-DD` from its bytes: ASCII digits where the digits go, a real month and day.
  private static func parseISO(_ bytes: UnsafeRawBufferPointer) -> Day? {
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let byte = bytes[index]
        guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month),
      (1...Self.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    return Day(year: year, month: month, day: day)
  }

  public var description: String {
    // Made from ASCII digits directly: a rebuild names every day's files several times, and interpolation with
    // padding was a large part of its instructions (`bench/instructions.sh`).
    guard (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day) else {
      func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
      }
      return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
    let dash = UInt8(ascii: "-")
    return String(unsafeUninitializedCapacity: 10) { buffer in
      Self.writeDigits(year, count: 4, into: buffer, at: 0)
      buffer[4] = dash
      Self.writeDigits(month, count: 2, into: buffer, at: 5)
      buffer[7] = dash
      Self.writeDigits(day, count: 2, into: buffer, at: 8)
      return 10
    }
  }

  /// Writes the last `count` decimal digits of `value` (not negative) at `start` in `buffer`, zeros in front.
  static func writeDigits(_ value: Int, count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
    var rest = value
    for index in stride(from: start + count - 1, through: start, by: -1) {
      buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    }
  }

  public static func < (lhs: Day, rhs: Day) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let day = Day(iso: text) else {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a day: \(text)"))
    }
    self = day
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// The day `count` days later (earlier when negative), in the proleptic Gregorian calendar.
  public func adding(days count: Int) -> Day {
    Day(julianDayNumber: julianDayNumber + count)
  }

  /// Days from `self` to `other`.
  public func distance(to other: Day) -> Int { other.julianDayNumber - julianDayNumber }

  /// Seconds since 1970 of the day's midnight in UTC (the Julian day number of 1970-01-01 is 2,440,588).
  public var utcMidnight: Int64 { Int64(julianDayNumber - 2_440_588) * 86_400 }

  /// The day of the week.
  public var weekday: Weekday {
    // The Julian day number of a Monday is a multiple of 7.
    Weekday.allCases[((julianDayNumber % 7) + 7) % 7]
  }

  /// The first day of the month.
  public var firstOfMonth: Day { Day(year: year, month: month, day: 1) }

  /// How many days the month of `self` has.
  public var daysInMonth: Int { Self.daysIn(month: month, year: year) }

  /// The days from `self` through `last`, oldest first; empty when `last` is earlier.
  public func through(_ last: Day) -> [Day] {
    let count = distance(to: last)
    return count < 0 ? [] : (0...count).map { adding(days: $0) }
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  // Day arithmetic through the Julian day number avoids a time zone: a day is a day everywhere.
  private var julianDayNumber: Int {
    let a = (14 - month) / 12
    let y = year + 4800 - a
    let m = month + 12 * a - 3
    return day + (153 * m + 2) / 5 + 365 * y + y / 4 - y / 100 + y / 400 - 32045
  }

  private init(julianDayNumber jdn: Int) {
    let a = jdn + 32044
    let b = (4 * a + 3) / 146097
    let c = a - 146097 * b / 4
    let d = (4 * c + 3) / 1461
    let e = c - 1461 * d / 4
    let m = (5 * e + 2) / 153
    self.init(year: 100 * b + d - 4800 + m / 10, month: m + 3 - 12 * (m / 10), day: e - (153 * m + 2) / 5 + 1)
  }
}
