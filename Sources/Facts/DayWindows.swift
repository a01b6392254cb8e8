import GitReader

/// The windows of a run of days, for sorting many instants into days: a rebuild sorts every commit of its span, and
/// asking the calendar for each (Foundation's date components) was a large part of a second rebuild.
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
    window(containing: seconds).day
  }

  /// The day `seconds` belongs to, and where that day ends when it is one of the run (nil otherwise).
  private func window(containing seconds: Int64) -> (day: Day, end: Int64?) {
    guard let start = starts.first, let end = starts.last, seconds >= start, seconds < end else {
      return (calendar.day(containing: seconds), nil)
    }
    // The last start not after `seconds`.
    var low = 0
    var high = starts.count - 1
    while high - low > 1 {
      let middle = (low + high) / 2
      if starts[middle] <= seconds { low = middle } else { high = middle }
    }
    return (first.adding(days: low), starts[low + 1])
  }

  /// `records` cut into days, in order, each day's in the order of their author times, those of one second in the
  /// order given (the order `ProjectFacts` keeps): sorted once and cut where each day ends, cheaper than grouping them
  /// by day in a dictionary.
  func days(of records: [CommitRecord]) -> [(day: Day, records: [CommitRecord])] {
    let order = records.indices.sorted { (records[$0].authoredAt, $0) < (records[$1].authoredAt, $1) }
    var days: [(day: Day, records: [CommitRecord])] = []
    var position = 0
    while position < order.count {
      let (day, end) = window(containing: records[order[position]].authoredAt)
      var next = position + 1
      if let end {
        while next < order.count && records[order[next]].authoredAt < end { next += 1 }
      }
      let run = order[position..<next].map { records[$0] }
      // Outside the run, each instant's day is the calendar's: consecutive ones of the same day join.
      if days.last?.day == day { days[days.count - 1].records += run } else { days.append((day, run)) }
      position = next
    }
    return days
  }
}
