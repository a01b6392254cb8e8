import Facts
import GitReader
import Narrative
import Support

/// Parses the ways a user names a day: `YYYY-MM-DD`, `today`, `yesterday`, `-N` (N days ago).
enum DayArgument {
  static func parse(_ text: String, today: Day, spec: CommandSpec) throws(UsageError) -> Day {
    switch text {
    case "today": return today
    case "yesterday": return today.adding(days: -1)
    default:
      // No further back than 0001-01-01, the first day YYYY-MM-DD can name: past it the day arithmetic makes
      // meaningless dates and, near Int.max, overflows.
      if text.hasPrefix("-"), let count = Int(text.dropFirst()), count >= 0,
        count <= Day(year: 1, month: 1, day: 1).distance(to: today)
      {
        return today.adding(days: -count)
      }
      if let day = Day(iso: text) { return day }
      throw UsageError(
        message: "'\(text)' is not a day: use YYYY-MM-DD, today, yesterday or -N (N days ago)", spec: spec)
    }
  }
}
