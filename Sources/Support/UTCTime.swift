#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A UTC time written as `2026-12-01T09:30:00Z`, for the logs' lines and the config's `retired` values.
///
/// Foundation's `ISO8601DateFormatter` builds an ICU date formatter for each use, a large part of a hook that logs
/// a line or reads a retired repository (`bench/instructions.sh`). The C library does the arithmetic.
package enum UTCTime {
  /// `seconds` since 1970, rounded down to the second.
  package static func format(_ seconds: Int64) -> String {
    var time = time_t(seconds)
    var parts = tm()
    guard gmtime_r(&time, &parts) != nil else { return "\(seconds)" }
    func padded(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let day =
      padded(Int(parts.tm_year) + 1900, 4) + "-" + padded(Int(parts.tm_mon) + 1, 2) + "-"
      + padded(Int(parts.tm_mday), 2)
    let clock = [parts.tm_hour, parts.tm_min, parts.tm_sec].map { padded(Int($0), 2) }.joined(separator: ":")
    return day + "T" + clock + "Z"
  }

  /// Seconds since 1970 of `2026-12-01T09:30:00Z` or, as ISO 8601's internet form allows, of a time with an
  /// offset (`2026-12-01T10:30:00+01:00`); nil for anything else, a date that does not exist included.
  package static func parse(_ text: Substring) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count == 20 || bytes.count == 25 else { return nil }
    func number(_ start: Int, _ length: Int) -> Int? {
      var value = 0
      for byte in bytes[start..<start + length] {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    func byte(_ index: Int, is character: Unicode.Scalar) -> Bool { bytes[index] == UInt8(ascii: character) }
    guard byte(4, is: "-"), byte(7, is: "-"), byte(10, is: "T") || byte(10, is: "t"), byte(13, is: ":"),
      byte(16, is: ":"),
      let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
      let minute = number(14, 2), let second = number(17, 2),
      hour < 24, minute < 60, second < 60
    else { return nil }
    var offsetSeconds = 0
    if bytes.count == 20 {
      guard byte(19, is: "Z") || byte(19, is: "z") else { return nil }
    } else {
      guard byte(19, is: "+") || byte(19, is: "-"), byte(22, is: ":"), let offsetHours = number(20, 2),
        let offsetMinutes = number(23, 2), offsetHours < 24, offsetMinutes < 60
      else { return nil }
      offsetSeconds = (offsetHours * 60 + offsetMinutes) * 60 * (byte(19, is: "-") ? -1 : 1)
    }
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(second)
    let seconds = Int64(timegm(&parts))
    // timegm carries a day the month does not have into the next month: such a date is none.
    guard parts.tm_mon == Int32(month - 1), parts.tm_mday == Int32(day) else { return nil }
    return seconds - Int64(offsetSeconds)
  }
}
