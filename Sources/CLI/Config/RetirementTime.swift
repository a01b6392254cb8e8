import Foundation

/// The `repo.<name>.retired` value: a UTC time, `2026-12-01T09:30:00Z`, readable in the config file.
enum RetirementTime {
  static func format(_ seconds: Int64) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
  }

  static func parse(_ text: String) -> Int64? {
    guard let date = ISO8601DateFormatter().date(from: text.trimmingCharacters(in: .whitespaces)) else { return nil }
    return Int64(exactly: date.timeIntervalSince1970.rounded(.down))
  }
}
