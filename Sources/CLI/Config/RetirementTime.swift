import Support

/// The `repo.<name>.retired` value: a UTC time, `2026-12-01T09:30:00Z`, readable in the config file.
enum RetirementTime {
  static func format(_ seconds: Int64) -> String { UTCTime.format(seconds) }

  static func parse(_ text: String) -> Int64? {
    UTCTime.parse(text.trimmingLineSpaces())
  }
}
