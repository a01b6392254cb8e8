import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Narrative
@testable import Support

/// What the model is asked about a week or a month, and what the guard lets its sentence say: the numbers the page
/// states (commits, days with commits, days, projects) in their roles, the projects' names and shown subjects, the
/// busiest day's name; nothing of a private project but its name and counts.
struct PeriodPromptTests {
  static let calendar = JournalFixtures.calendar
  /// Monday 30 November 2026 to Sunday 6 December.
  static let week = Week(containing: Day(year: 2026, month: 12, day: 2))

  static func day(_ offset: Int) -> Day { week.start.adding(days: offset) }

  static func project(_ name: String, on day: Day, isPrivate: Bool = false, _ subjects: [String]) -> ProjectFacts {
    let start = calendar.window(of: day).start + 9 * 3600
    let commits = subjects.enumerated().map { index, subject in
      CommitRecord(
        id: .repeating(String((day.day + index) % 10)), authorName: "Me", authorEmail: "me@example.com",
        authoredAt: start + Int64(index) * 600, authorOffsetMinutes: 0, subject: subject, isMerge: false,
        stats: DiffStats(filesChanged: 3, insertions: 40 + index, deletions: 7))
    }
    return ProjectFacts(name: name, path: "/code/\(name)", isPrivate: isPrivate, commits: commits)
  }

  /// 9 commits on Monday, Tuesday, Wednesday and Thursday: notes-app 6 on 3 days, site once, billing (private)
  /// twice. Tuesday is the busiest.
  static let busyWeek = PeriodFacts(
    period: .week(week),
    days: [
      DayFacts(day: day(0), projects: [project("notes-app", on: day(0), ["Fix the sync crash", "Add export"])]),
      DayFacts(
        day: day(1),
        projects: [
          project("notes-app", on: day(1), ["Export: lists", "Export: tables", "Fix the sync crash"]),
          project("site", on: day(1), ["Update the footer"]),
        ]),
      DayFacts(
        day: day(2),
        projects: [project("billing", on: day(2), isPrivate: true, ["Invoice the Initech merger", "Round totals"])]),
      DayFacts(day: day(3), projects: [project("notes-app", on: day(3), ["Tidy the settings screen"])]),
    ])

  static func check(_ raw: String, _ period: PeriodFacts = busyWeek) -> SentenceGuard.Verdict {
    let prompt = Prompt(period: period)
    return SentenceGuard.check(raw, prompt: prompt.user, question: prompt.asked, grounding: Grounding(period: period))
  }

  @Test func aWeeksFactsAreItsNumbersInProseAndTheQuestionComesLast() {
    let prompt = Prompt(period: Self.busyWeek)
    #expect(
      prompt.user == """
        This week I committed 9 times on 4 of 7 days, in 3 projects. In notes-app I committed 6 times on 3 days \
        (2 fixes, 1 feature, 1 refactor, 2 other): "Fix the sync crash"; "Add export"; "Export: lists"; \
        "Export: tables"; "Tidy the settings screen". In site I committed once on 1 day (1 chore): "Update the footer". I also committed twice on 1 day \
        to billing, a private project. My busiest day was Tuesday.

        Say what the week was mainly about and what kind of work it was, in your own words. Do not list the commits.

        In one sentence, what did I work on this week?
        """)
    #expect(prompt.system.contains("what I did this week"))
    #expect(!prompt.user.contains("Initech") && !prompt.user.contains("Round totals"))
    // No line counts, dates or times: the page states those exactly.
    let facts = prompt.user.replacingOccurrences(of: prompt.asked, with: "")
    #expect(SentenceGuard.numbers(in: facts) == [9, 4, 7, 3, 6, 1, 2])
  }

  @Test func aMonthIsAskedAboutLikeAWeekWithoutItsBusiestDay() {
    let month = PeriodFacts(period: .month(Month(containing: Self.day(2))), days: Self.busyWeek.facts.days)
    let prompt = Prompt(period: month)
    #expect(prompt.user.hasPrefix("This month I committed 7 times on 3 of 31 days, in 3 projects. In notes-app"))
    #expect(prompt.user.hasSuffix("\n\nIn one sentence, what did I work on this month?"))
    #expect(!prompt.user.contains("busiest"))
    // 30 November is the week's, not the month's.
    #expect(!prompt.user.contains("Add export"))
    #expect(
      Self.check("This month I made 7 commits on 3 of 31 days, working on notes-app.", month)
        == .accepted("This month I made 7 commits on 3 of 31 days, working on notes-app."))
  }

  /// A month of many commits shows a few subjects of each project, from its first days to its last, each once.
  @Test func subjectsAreSpreadOverThePeriod() {
    #expect(Prompt.spread(Array(1...20), count: 6) == [1, 4, 8, 12, 16, 20])
    #expect(Prompt.spread([1, 2, 3], count: 6) == [1, 2, 3])
    let month = Month(containing: Day(year: 2026, month: 3, day: 1))
    let days = (0..<20).map { offset in
      let day = month.first.adding(days: offset)
      return DayFacts(day: day, projects: [Self.project("app", on: day, ["Step \(offset + 1)", "WIP"])])
    }
    let user = Prompt(period: PeriodFacts(period: .month(month), days: days)).user
    #expect(
      user.contains(
        #"In app I committed 40 times on 20 days: "Step 1"; "Step 4"; "Step 8"; "Step 12"; "Step 16"; "Step 20" and more."#
      ), "\(user)")
  }

  /// A project private on any day of the period gives the period its name and counts only.
  @Test func aProjectPrivateOnOneDayIsPrivateForThePeriod() {
    let period = PeriodFacts(
      period: .week(Self.week),
      days: [
        DayFacts(
          day: Self.day(0), projects: [Self.project("billing", on: Self.day(0), isPrivate: true, ["Invoice Initech"])]),
        DayFacts(day: Self.day(4), projects: [Self.project("billing", on: Self.day(4), ["Draft the Initech memo"])]),
      ])
    let prompt = Prompt(period: period)
    #expect(!prompt.user.contains("Initech"))
    #expect(prompt.user.contains("I committed twice on 2 days to billing, a private project."))
    #expect(!prompt.user.contains("For example"))
  }

  /// A week's kinds of work are facts for its sentence, as a day's are.
  @Test func theKindsWordsAreFacts() {
    let sentence = "This week I made chores in site."
    #expect(Self.check(sentence) == .accepted(sentence))
    #expect(
      Self.check("This week I made performance changes in site.")
        != .accepted("This week I made performance changes in site."))
  }

  @Test(arguments: [
    "This week I made 9 commits on 4 days, working on notes-app and site.",
    "I worked on notes-app on 3 days and on site on 1 day this week.",
    "This week I fixed the sync crash in notes-app and updated the footer of site.",
    "I made 6 commits to notes-app and committed twice to billing, a private project.",
    "My busiest day was Tuesday, when I worked on the export in notes-app.",
  ])
  func sentencesOfTheWeeksFactsAreAccepted(_ sentence: String) {
    #expect(Self.check(sentence) == .accepted(sentence))
  }

  @Test(arguments: [
    ("This week I made 12 commits on 4 days.", "states the number 12, which the facts do not contain"),
    ("This week I made 9 commits on 5 days.", "states the number 5"),
    ("This week I made 9 commits on 3 days.", "states 3 days, which is neither how many had commits"),
    ("I worked on site on 3 days this week.", "states 3 days"),
    ("I made 6 commits to site this week.", "states 6 commits, which is neither the period's count"),
    ("My busiest day was Monday.", "says what the facts do not ('monday')"),
    // True, and the factual line says it already.
    ("I committed 9 times on 4 of 7 days, in 3 projects.", "says only what the factual line says"),
    ("This week I worked mostly on notes-app.", "says what the facts do not ('mostly')"),
    ("I invoiced the Initech merger in billing.", "says what the facts do not"),
  ])
  func sentencesBeyondTheWeeksFactsAreRejected(_ sentence: String, _ reason: String) {
    guard case .rejected(let given) = Self.check(sentence) else {
      Issue.record("accepted: \(sentence)")
      return
    }
    #expect(given.contains(reason), "\(given)")
  }

  /// The question read back before the answer is stripped, as the day's is.
  @Test func theWeeksQuestionReadBackIsStripped() {
    #expect(
      Self.check("In one sentence, what did I work on this week: I fixed the sync crash in notes-app.")
        == .accepted("I fixed the sync crash in notes-app."))
    #expect(
      Self.check("What did I work on this week? The sync crash.")
        == .rejected("echoes the prompt ('what did I work on')"))
  }

  /// The signature keys the cache and the narrator's attachment: equal facts, equal signatures; any commit of the
  /// period, another period of the same days, or another time zone, another one; never a day's.
  @Test func theSignatureFollowsThePeriodsFacts() throws {
    let same = PeriodFacts(period: .week(Self.week), days: Self.busyWeek.facts.days)
    #expect(same.signature(calendar: Self.calendar) == Self.busyWeek.signature(calendar: Self.calendar))
    var days = Self.busyWeek.facts.days
    days[6] = DayFacts(day: Self.day(6), projects: [Self.project("site", on: Self.day(6), ["Sunday fix"])])
    let moved = PeriodFacts(period: .week(Self.week), days: days)
    #expect(moved.signature(calendar: Self.calendar) != Self.busyWeek.signature(calendar: Self.calendar))
    let sunday = DayFacts(day: Self.day(6), projects: [Self.project("site", on: Self.day(6), ["Sunday fix"])])
    let week = PeriodFacts(period: .week(Self.week), days: [sunday])
    let month = PeriodFacts(period: .month(Month(containing: Self.day(6))), days: [sunday])
    #expect(week.signature(calendar: Self.calendar) != month.signature(calendar: Self.calendar))
    #expect(week.signature(calendar: Self.calendar) != sunday.signature(calendar: Self.calendar))
    let berlin = JournalCalendar(timeZone: try #require(TimeZoneRules(identifier: "Europe/Berlin")))
    #expect(week.signature(calendar: berlin) != week.signature(calendar: Self.calendar))
  }
}
