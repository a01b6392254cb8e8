import Facts
import Support

/// Writes day files from facts and, when there is one, the model's sentence: the one way data reaches the
/// journal. It never reads repositories and never asks the model; it is given both.
public struct JournalWriter: Sendable {
  public let store: JournalStore
  public let calendar: JournalCalendar
  public let pages: Pages

  public init(store: JournalStore, calendar: JournalCalendar, pages: Pages = Pages()) {
    self.store = store
    self.calendar = calendar
    self.pages = pages
  }

  /// Which pages besides the days' are written, and how they link.
  public struct Pages: Sendable, Equatable {
    /// Each day's block ends with links to the previous and next day that have a file (and its week).
    public var links: Bool
    /// `YYYY-Www.md` for every week with a day file.
    public var weekly: Bool
    /// `YYYY-MM.md` for every month with a day file.
    public var monthly: Bool
    public var weekStart: Weekday

    public init(links: Bool = false, weekly: Bool = false, monthly: Bool = false, weekStart: Weekday = .monday) {
      self.links = links
      self.weekly = weekly
      self.monthly = monthly
      self.weekStart = weekStart
    }
  }

  /// A day as it was written.
  public struct WrittenDay: Sendable {
    public let facts: DayFacts
    public let sentence: String?
    public let outcome: JournalStore.Outcome
  }

  /// Writes one day, taking the journal lock for it (`FileLock.Busy` after `JournalStore.lockTimeout`).
  @discardableResult
  public func write(
    _ facts: DayFacts, sentence: String?, durability: JournalStore.Durability = .immediate
  ) throws -> WrittenDay {
    try store.lockedNow { locked in try write(facts, sentence: sentence, in: locked, durability: durability) }
  }

  /// Writes one day while the caller holds the journal lock (`store.locked`). `recorded`: the day's record as the
  /// caller read it under this lock (`.some(nil)` for none), which spares reading it again; nil when not read.
  /// `daysWithFiles`: the days that have (or are about to get) a file, sorted, when the caller knows them (a
  /// rebuild); else the day's links are those its file has, and the folder is listed only for a new file.
  /// `refreshingPeriods`: the day's week and month pages are refreshed when its facts changed; a rebuild writes
  /// them once at the end instead (`writePeriods`).
  @discardableResult
  public func write(
    _ facts: DayFacts, sentence: String?, in locked: LockedJournalStore,
    durability: JournalStore.Durability = .immediate, recorded: DayFacts?? = nil, daysWithFiles: [Day]? = nil,
    refreshingPeriods: Bool = true
  ) throws(SystemError) -> WrittenDay {
    let day = facts.day
    var knownDays = daysWithFiles
    var links: PageLinks?
    if pages.links {
      if knownDays == nil, let old = locked.links(at: store.path(of: day)), old.up == upName(of: day) {
        links = old
      } else {
        let days = knownDays ?? locked.daysWithFiles()
        knownDays = days
        links = dayLinks(of: day, among: days)
      }
    }
    let outcome = try locked.write(
      page(facts, sentence: sentence, links: links), for: day, isEmpty: facts.isEmpty, durability: durability)
    guard outcome != .nothingToWrite else { return WrittenDay(facts: facts, sentence: sentence, outcome: outcome) }
    let previous: DayFacts? = recorded ?? (refreshingPeriods ? locked.record(of: day) : nil)
    // The record follows the file: what the file says is what the next write carries over.
    try locked.writeRecord(facts, durability: durability, recorded: recorded)
    if outcome == .created && pages.links && daysWithFiles == nil, let links {
      // A new file is its neighbours' new neighbour.
      try relink(day, links: links, in: locked)
    }
    if refreshingPeriods && (outcome == .created || previous != facts) {
      try writePeriods(containing: [day], replacing: facts, in: locked)
    }
    return WrittenDay(facts: facts, sentence: sentence, outcome: outcome)
  }

  /// Writes the week and month pages of `days` from the recorded facts of their days (`replacing`: facts of one
  /// day to use instead of its record). A period with no day file gets no page; one whose page exists is updated.
  public func writePeriods(
    containing days: [Day], replacing current: DayFacts? = nil, in locked: LockedJournalStore,
    durability: JournalStore.Durability = .immediate
  ) throws(SystemError) {
    func facts(_ day: Day) -> DayFacts? { day == current?.day ? current : locked.recordedFacts(of: day) }
    if pages.weekly {
      for week in Set(days.map { Week(containing: $0, starting: pages.weekStart) }).sorted() {
        let range = RangeFacts(first: week.start, last: week.last, days: week.days.compactMap(facts))
        let month = Month(containing: week.start.adding(days: 3))
        let links = PageLinks(
          previous: week.previous.description, up: pages.monthly ? month.description : nil,
          next: week.next.description)
        let page = JournalPage(week: week, facts: range, narrative: nil, calendar: calendar, links: links)
        try locked.write(
          page, at: store.path(ofPage: week.description), pageName: week.description, isEmpty: range.isEmpty,
          durability: durability)
      }
    }
    if pages.monthly {
      for month in Set(days.map { Month(containing: $0) }).sorted() {
        let range = RangeFacts(first: month.first, last: month.last, days: month.days.compactMap(facts))
        let links = PageLinks(previous: month.previous.description, up: nil, next: month.next.description)
        let page = JournalPage(
          month: month, facts: range, weekStart: pages.weekStart, narrative: nil, linkingWeeks: pages.weekly,
          links: links)
        try locked.write(
          page, at: store.path(ofPage: month.description), pageName: month.description, isEmpty: range.isEmpty,
          durability: durability)
      }
    }
  }

  /// Points the previous and next day's links at `day`, whose file was just made.
  public func relink(_ day: Day, links: PageLinks, in locked: LockedJournalStore) throws(SystemError) {
    if let previous = links.previous.flatMap(Day.init(iso:)) {
      try locked.replaceLinks(at: store.path(of: previous)) { old in
        PageLinks(previous: old?.previous, up: upName(of: previous), next: day.description)
      }
    }
    if let next = links.next.flatMap(Day.init(iso:)) {
      try locked.replaceLinks(at: store.path(of: next)) { old in
        PageLinks(previous: day.description, up: upName(of: next), next: old?.next)
      }
    }
  }

  /// A day's links among the days with a file.
  public func dayLinks(of day: Day, among days: [Day]) -> PageLinks {
    PageLinks(
      previous: days.last { $0 < day }?.description, up: upName(of: day),
      next: days.first { $0 > day }?.description)
  }

  private func upName(of day: Day) -> String? {
    pages.weekly ? Week(containing: day, starting: pages.weekStart).description : nil
  }

  private func page(_ facts: DayFacts, sentence: String?, links: PageLinks?) -> JournalPage {
    JournalPage(facts: facts, narrative: facts.isEmpty ? nil : sentence, calendar: calendar, links: links)
  }
}
