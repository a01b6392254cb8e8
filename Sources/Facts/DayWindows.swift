/// The windows of a run of days, for sorting many instants into days: a rebuild sorts every commit of its span, and
/// asking the calendar for each (Foundation's date components) cost a second rebuild 7% of its instructions.
/// Instants outside the run are asked of the calendar.
struct DayWindows {
  private let calendar: JournalCalendar
  private let first: Day
  /// The start of each day from `first` on, and after them the end of the last.
  private let starts: [Int64]

  init(calendar: JournalCalendar, first: Day, last: Day) {
    self.calendar = calendar
    self.first = first
    var starts = first.through(last).map { calendar.window(of: $0).start }
    starts.append(calendar.window(of: last).end)
    self.starts = starts
  }

  /// The journal day `seconds` belongs to (`JournalCalendar.day(containing:)`).
  func day(containing seconds: Int64) -> Day {
    guard let start = starts.first, let end = starts.last, seconds >= start, seconds < end else {
      return calendar.day(containing: seconds)
    }
    // The last start not after `seconds`.
    var low = 0
    var high = starts.count - 1
    while high - low > 1 {
      let middle = (low + high) / 2
      if starts[middle] <= seconds { low = middle } else { high = middle }
    }
    return first.adding(days: low)
  }
}
