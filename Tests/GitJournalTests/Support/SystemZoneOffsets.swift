import Foundation

/// A zone's offsets as the C library's own tools read the system's zone files (`zdump -v`): the reference the
/// zone reader is checked against. Foundation is no such reference everywhere: Swift 6.0's carries ICU's zones of
/// its own release, which differ from newer system files (Asunción's standard time since 2024, say).
struct SystemZoneOffsets {
  /// (instant, offset in force from it on), by instant.
  private let points: [(instant: Int64, offset: Int)]

  /// The offsets of `zone` from 1800 to 2100 inclusive; nil where `zdump` is missing or tells none.
  init?(zone: String) {
    guard
      let result = try? Subprocess.run(
        "/usr/bin/env", ["zdump", "-v", "-c", "1800,2101", zone],
        environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"],
        currentDirectory: "/"),
      result.status == 0
    else { return nil }
    var points: [(instant: Int64, offset: Int)] = []
    for line in result.standardOutput.split(separator: "\n") {
      // "Europe/Paris  Sun Mar 29 01:00:00 2026 UT = Sun Mar 29 03:00:00 2026 CEST isdst=1 gmtoff=7200"
      let words = line.split(separator: " ")
      guard let ut = words.firstIndex(of: "UT"), ut >= 5,
        let offsetWord = words.last(where: { $0.hasPrefix("gmtoff=") }),
        let offset = Int(offsetWord.dropFirst("gmtoff=".count)),
        let instant = Self.instant(month: words[ut - 4], day: words[ut - 3], time: words[ut - 2], year: words[ut - 1])
      else { continue }
      points.append((instant, offset))
    }
    if points.isEmpty && zone != "UTC" { return nil }
    self.points = points.sorted { $0.instant < $1.instant }
  }

  /// The offset at `instant`: that of the last point at or before it. Before the first point, the first's: `zdump`
  /// gives each change as the second before it and the second it happens, so the first point tells the offset
  /// in force until then. UTC's, with no points, is 0.
  func offset(at instant: Int64) -> Int {
    if points.isEmpty { return 0 }
    var low = 0
    var high = points.count
    while low < high {
      let middle = (low + high) / 2
      if points[middle].instant <= instant { low = middle + 1 } else { high = middle }
    }
    return points[max(low, 1) - 1].offset
  }

  private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// Seconds since 1970 of a UTC date and time as `zdump` writes it.
  private static func instant(month: Substring, day: Substring, time: Substring, year: Substring) -> Int64? {
    guard let monthIndex = months.firstIndex(of: String(month)), let day = Int64(day), let year = Int64(year) else {
      return nil
    }
    let clock = time.split(separator: ":").compactMap { Int64($0) }
    guard clock.count == 3 else { return nil }
    // Days from 1970-01-01 to the date (the proleptic Gregorian calendar, years shifted to start in March).
    let month = Int64(monthIndex + 1)
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return days * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2]
  }
}
