import Facts
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes day files from facts and, when there is one, the model's sentence: the one way data reaches the
/// journal. It never reads repositories and never asks the model; it is given both.
public struct JournalWriter: Sendable {
  public let store: JournalStore
  public let calendar: JournalCalendar
  public let pages: Pages
  /// The clock a running week's or month's page is written by: it speaks only of the days that have begun.
  public var now: @Sendable () -> Date = { Date() }

  public init(store: JournalStore, calendar: JournalCalendar, pages: Pages = Pages()) {
    self.store = store
    self.calendar = calendar
    self.pages = pages
  }

  /// The last day of `period` that has begun, when the period is running (nil once it has ended, or before it
  /// begins: a page of days that have not begun holds only commits dated by hand into the future).
  public func begunThrough(_ period: PeriodFacts.Period) -> Day? {
    let today = calendar.day(containing: now())
    return today >= period.first && today < period.last ? today : nil
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
    /// The day's facts as the file shows them: every machine's records, this machine's new facts among them.
    public let facts: DayFacts
    public let sentence: String?
    public let outcome: JournalStore.Outcome
    /// The week and month pages written with it, because its facts changed.
    public var periods: [WrittenPeriod] = []

    public init(facts: DayFacts, sentence: String?, outcome: JournalStore.Outcome) {
      self.facts = facts
      self.sentence = sentence
      self.outcome = outcome
    }
  }

  /// A week's or a month's page as it was written.
  public struct WrittenPeriod: Sendable {
    /// The period's facts as the page shows them, from every machine's records of its days.
    public let facts: PeriodFacts
    public let sentence: String?
    public let outcome: JournalStore.Outcome

    public init(facts: PeriodFacts, sentence: String?, outcome: JournalStore.Outcome) {
      self.facts = facts
      self.sentence = sentence
      self.outcome = outcome
    }
  }

  /// The sentence to show for a day's facts (every machine's), if there is one.
  public typealias Sentence = (DayFacts) -> String?

  /// The sentence to show for a week's or a month's facts, if there is one.
  public typealias PeriodSentence = (PeriodFacts) -> String?

  /// Writes one day, taking the journal lock for it (`FileLock.Busy` after `JournalStore.lockTimeout`).
  @discardableResult
  public func write(
    _ facts: DayFacts, sentence: String?, durability: JournalStore.Durability = .immediate
  ) throws -> WrittenDay {
    try store.lockedNow { locked in try write(facts, sentence: { _ in sentence }, in: locked, durability: durability) }
  }

  /// Writes one day while the caller holds the journal lock (`store.locked`): `facts` become this machine's
  /// record of the day, then the file is rendered from every machine's records. `recorded`: this machine's record
  /// as the caller read it under this lock, which spares reading it again.
  /// `daysWithFiles`: the days that have (or are about to get) a file, sorted, when the caller knows them (a
  /// rebuild); else the day's links are those its file has, and the folder is listed only for a new file.
  /// `refreshingPeriods`: the day's week and month pages are refreshed when its facts changed, with
  /// `periodSentence`; a rebuild writes them once at the end instead (`writePeriods`).
  @discardableResult
  public func write(
    _ facts: DayFacts, sentence: Sentence, periodSentence: PeriodSentence = { _ in nil }, in locked: LockedJournalStore,
    durability: JournalStore.Durability = .immediate, recorded: KnownRecord = .unread, daysWithFiles: [Day]? = nil,
    refreshingPeriods: Bool = true
  ) throws(SystemError) -> WrittenDay {
    let day = facts.day
    let hasRecord: Bool
    switch recorded {
    case .read: hasRecord = true
    case .absent: hasRecord = false
    case .unread: hasRecord = locked.record(of: day) != nil
    }
    let wantsPeriods = refreshingPeriods && (pages.weekly || pages.monthly)
    // What the day's pages showed: with this machine's record already read, only the other machines' are read.
    let previous: DayFacts?
    if !wantsPeriods {
      previous = nil
    } else if case .read(let own) = recorded {
      previous = locked.recordedFacts(of: day, own: own)
    } else {
      previous = locked.recordedFacts(of: day)
    }
    // The record comes first: a machine that renders the file after this point has these facts, and a file
    // write that fails is done by the next render, from the records.
    if !facts.isEmpty || hasRecord { try locked.writeRecord(facts, durability: durability, recorded: recorded) }
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
    var written = try render(day, sentence: sentence, links: links, in: locked, durability: durability) {
      locked.recordedFacts(of: day, own: facts)
    }
    guard written.outcome != .nothingToWrite else { return written }
    if written.outcome == .created && pages.links && daysWithFiles == nil, let links {
      // A new file is its neighbours' new neighbour.
      try relink(day, links: links, in: locked)
    }
    if wantsPeriods && (written.outcome == .created || previous != written.facts) {
      written.periods = try writePeriods(
        containing: [day], replacing: written.facts, sentence: periodSentence, in: locked)
    }
    return written
  }

  /// Renders the day's file from every machine's records as they are now, writing no record: to attach a
  /// sentence, or after another machine's records arrived. Its links are those its file has.
  @discardableResult
  public func render(
    _ day: Day, sentence: Sentence, in locked: LockedJournalStore, durability: JournalStore.Durability = .immediate
  ) throws(SystemError) -> WrittenDay {
    let links = pages.links ? locked.links(at: store.path(of: day)) : nil
    return try render(day, sentence: sentence, links: links, in: locked, durability: durability) {
      store.recordedFacts(of: day) ?? DayFacts(day: day, projects: [])
    }
  }

  /// The page is made for each attempt of the write (see `LockedJournalStore.write(_:durability:render:)`).
  private func render(
    _ day: Day, sentence: Sentence, links: PageLinks?, in locked: LockedJournalStore,
    durability: JournalStore.Durability, facts: () -> DayFacts
  ) throws(SystemError) -> WrittenDay {
    var shown = DayFacts(day: day, projects: [])
    var shownSentence: String?
    let outcome = try locked.write(day, durability: durability) {
      shown = facts()
      shownSentence = shown.isEmpty ? nil : sentence(shown)
      return (page(shown, sentence: shownSentence, links: links), shown.isEmpty)
    }
    return WrittenDay(facts: shown, sentence: shownSentence, outcome: outcome)
  }

  /// Writes the week and month pages of `days` from the recorded facts of their days (`replacing`: facts of one
  /// day to use instead of its record; `known`: of several days, as a rebuild just wrote them), each with the
  /// sentence `sentence` gives for its facts. A period with no day file gets no page; one whose page exists is
  /// updated.
  @discardableResult
  public func writePeriods(
    containing days: [Day], replacing current: DayFacts? = nil, known: [Day: DayFacts] = [:],
    sentence: PeriodSentence = { _ in nil }, in locked: LockedJournalStore,
    durability: JournalStore.Durability = .immediate
  ) throws(SystemError) -> [WrittenPeriod] {
    // A week and its month share most days: each record is read once.
    var read: [Day: DayFacts?] = [:]
    func facts(_ day: Day) -> DayFacts? {
      if day == current?.day { return current }
      if let written = known[day] { return written }
      if let known = read[day] { return known }
      let recorded = locked.recordedFacts(of: day)
      read[day] = .some(recorded)
      return recorded
    }
    var written: [WrittenPeriod] = []
    for period in Set(days.flatMap(periods(containing:))).sorted() {
      let periodFacts = PeriodFacts(period: period, days: period.first.through(period.last).compactMap(facts))
      written.append(try writePeriod(periodFacts, sentence: sentence, in: locked, durability: durability))
    }
    return written
  }

  /// The week and month pages that hold `day`, those that are on.
  public func periods(containing day: Day) -> [PeriodFacts.Period] {
    var periods: [PeriodFacts.Period] = []
    if pages.weekly { periods.append(.week(Week(containing: day, starting: pages.weekStart))) }
    if pages.monthly { periods.append(.month(Month(containing: day))) }
    return periods
  }

  /// A period's facts as its page would show them now: every machine's records of its days.
  public func periodFacts(of period: PeriodFacts.Period, in locked: LockedJournalStore) -> PeriodFacts {
    PeriodFacts(period: period, days: period.first.through(period.last).compactMap(locked.recordedFacts(of:)))
  }

  /// Writes one week's or month's page from `facts`, with the sentence `sentence` gives for them.
  @discardableResult
  public func writePeriod(
    _ facts: PeriodFacts, sentence: PeriodSentence, in locked: LockedJournalStore,
    durability: JournalStore.Durability = .immediate
  ) throws(SystemError) -> WrittenPeriod {
    let shown = facts.isEmpty ? nil : sentence(facts)
    let page: JournalPage
    // A running period's page speaks of the days that have begun; its front matter counts the same commits.
    // A commit dated by hand after today keeps the whole period.
    let begun = begunThrough(facts.period).flatMap { today in
      facts.facts.days.contains { $0.day > today && !$0.isEmpty }
        ? nil : RangeFacts(first: facts.period.first, last: today, days: facts.facts.days)
    }
    switch facts.period {
    case .week(let week):
      let month = Month(containing: week.start.adding(days: 3))
      let links = PageLinks(
        previous: week.previous.description, up: pages.monthly ? month.description : nil,
        next: week.next.description)
      page = JournalPage(week: week, facts: begun ?? facts.facts, narrative: shown, calendar: calendar, links: links)
    case .month(let month):
      let links = PageLinks(previous: month.previous.description, up: nil, next: month.next.description)
      page = JournalPage(
        month: month, facts: begun ?? facts.facts, weekStart: pages.weekStart, narrative: shown,
        linkingWeeks: pages.weekly,
        links: links)
    }
    let outcome = try locked.write(
      page, at: store.path(ofPage: facts.name), pageName: facts.name, isEmpty: facts.isEmpty, durability: durability)
    return WrittenPeriod(facts: facts, sentence: shown, outcome: outcome)
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

  /// A day's links among the days with a file (sorted, as `daysWithFiles` gives them): found by bisection, since a
  /// rebuild asks this for each of thousands of days.
  public func dayLinks(of day: Day, among days: [Day]) -> PageLinks {
    var low = 0
    var high = days.count
    while low < high {
      let middle = (low + high) / 2
      if days[middle] < day { low = middle + 1 } else { high = middle }
    }
    // `low` is the first day not before `day`.
    let next = low < days.count && days[low] == day ? low + 1 : low
    return PageLinks(
      previous: low > 0 ? days[low - 1].description : nil, up: upName(of: day),
      next: next < days.count ? days[next].description : nil)
  }

  private func upName(of day: Day) -> String? {
    pages.weekly ? Week(containing: day, starting: pages.weekStart).description : nil
  }

  private func page(_ facts: DayFacts, sentence: String?, links: PageLinks?) -> JournalPage {
    JournalPage(facts: facts, narrative: facts.isEmpty ? nil : sentence, calendar: calendar, links: links)
  }
}
