/// Parses the ways a user names a day: `YYYY-MM-DD`, `today`, `yesterday`, `-N` (N days ago).
enum DayArgument {
  static func parse(_ text: String, today: Day, spec: CommandSpec) throws(UsageError) -> Day {
    switch text {
    case "today": return today
    case "yesterday": return today.adding(days: -1)
    default:
      if text.hasPrefix("-"), let count = Int(text.dropFirst()), count >= 0 { return today.adding(days: -count) }
      if let day = Day(iso: text) { return day }
      throw UsageError(
        message: "'\(text)' is not a day: use YYYY-MM-DD, today, yesterday or -N (N days ago)", spec: spec)
    }
  }
}
