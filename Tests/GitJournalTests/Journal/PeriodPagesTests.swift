import Foundation
import Testing

@testable import Facts
@testable import Journal
@testable import Support

/// Day pages link their neighbours; a page per week (`2026-W49.md`) and per month (`2026-12.md`) holds the sums of
/// its days, read from the day records, and keeps the user's text like a day file.
@Suite struct PeriodPagesTests {
  let sandbox: JournalSandbox
  let app: TemporaryRepository
  let site: TemporaryRepository

  init() throws {
    sandbox = try JournalSandbox()
    app = try sandbox.makeRegisteredRepository("app")
    site = try sandbox.makeRegisteredRepository("site")
  }

  private func file(_ name: String) -> String? { sandbox.journalFile(name) }

  private func linksLine(_ name: String) -> String? {
    file(name).flatMap { text in
      JournalMerger.lines(of: text).last { $0.hasPrefix("← [[") || $0.hasPrefix("[[") }
    }
  }

  /// The value of a front-matter key of a page.
  private func frontMatter(_ name: String, _ key: String) -> Int? {
    guard let text = file(name), let lines = JournalMerger.splitFrontMatter(text).lines else { return nil }
    return lines.first { $0.hasPrefix(key + ": ") }.flatMap { Int($0.dropFirst(key.count + 2)) }
  }

  private func rebuild(_ arguments: String...) async throws {
    let result = await sandbox.run(["rebuild"] + arguments)
    guard result.status == 0 else { throw ScratchError("rebuild \(arguments) failed: \(result)") }
  }

  /// The hook, as git runs it after a commit in `repository`.
  private func hook(in repository: TemporaryRepository) async throws {
    let result = await sandbox.run("hook", "post-commit", in: repository.path)
    guard result.status == 0, result.standardError.isEmpty else { throw ScratchError("hook: \(result)") }
  }

  @Test func dayPagesLinkThePreviousAndNextDayWithAFileAndTheirWeek() async throws {
    try app.commit(file: "a", content: "1\n", message: "Friday", date: "2026-11-27T10:00:00Z")
    try app.commit(file: "a", content: "2\n", message: "Wednesday", date: "2026-12-02T10:00:00Z")
    try await rebuild("--since", "2026-11-20", "--until", "2026-12-05")
    #expect(linksLine("2026-11-27") == "[[2026-W48]] · [[2026-12-02]] →")
    #expect(linksLine("2026-12-02") == "← [[2026-11-27]] · [[2026-W49]]")

    // A new day in between: its neighbours now link to it, with nothing else of theirs changed.
    let notes = "\nMy notes on Friday, \u{2028} kept.\n"
    let friday = try #require(file("2026-11-27"))
    try (friday + notes).write(toFile: sandbox.journalDirectory + "/2026-11-27.md", atomically: true, encoding: .utf8)
    try site.commit(file: "b", content: "1\n", message: "Monday", date: "2026-11-30T10:00:00Z")
    try await hook(in: site)
    #expect(linksLine("2026-11-30") == "← [[2026-11-27]] · [[2026-W49]] · [[2026-12-02]] →")
    #expect(linksLine("2026-11-27") == "[[2026-W48]] · [[2026-11-30]] →")
    #expect(linksLine("2026-12-02") == "← [[2026-11-30]] · [[2026-W49]]")
    let relinked = try #require(file("2026-11-27"))
    #expect(relinked.hasSuffix("-->\n" + notes), "the notes below the block are kept byte for byte")
    #expect(
      relinked.replacingOccurrences(of: "[[2026-11-30]]", with: "[[2026-12-02]]").prefix(while: { $0 != "<" })
        == friday.prefix(while: { $0 != "<" }))

    // The block's checksum still matches: the next update finds no edit to keep.
    try await rebuild("2026-11-27")
    #expect(file("2026-11-27") == relinked)
    #expect(!relinked.contains("was edited inside the generated block"))
  }

  @Test func aNeighbourWhoseBlockWasEditedIsLeftAlone() async throws {
    try app.commit(file: "a", content: "1\n", message: "Friday", date: "2026-11-27T10:00:00Z")
    try await rebuild("2026-11-27")
    let path = sandbox.journalDirectory + "/2026-11-27.md"
    let edited = try #require(file("2026-11-27")).replacingOccurrences(of: "- 10:00 Friday", with: "- 10:00 Fri!")
    try Data(edited.utf8).write(to: URL(fileURLWithPath: path))
    try app.commit(file: "a", content: "2\n", message: "Monday", date: "2026-11-30T10:00:00Z")
    try await hook(in: app)
    #expect(file("2026-11-27") == edited, "an edited block is the user's until its own day is written again")
    #expect(linksLine("2026-11-30") == "← [[2026-11-27]] · [[2026-W49]]")
  }

  @Test func linksAndPeriodPagesCanBeTurnedOff() async throws {
    try app.commit(file: "a", content: "1\n", message: "Monday", date: "2026-11-30T10:00:00Z")
    try app.commit(file: "a", content: "2\n", message: "Tuesday", date: "2026-12-01T10:00:00Z")
    try sandbox.configure("journal.weekly", "false")
    try sandbox.configure("journal.monthly", "false")
    try await rebuild("--since", "2026-11-30", "--until", "2026-12-01")
    #expect(sandbox.journalFolderNames() == ["2026-11-30.md", "2026-12-01.md"])
    #expect(linksLine("2026-11-30") == "[[2026-12-01]] →", "no week page, no link to it")
    try sandbox.configure("journal.links", "false")
    try await rebuild("--since", "2026-11-30", "--until", "2026-12-01")
    #expect(linksLine("2026-11-30") == nil)
    #expect(linksLine("2026-12-01") == nil)
    try sandbox.configure("journal.weekly", "sometimes")
    let wrong = await sandbox.run("rebuild")
    #expect(wrong.status == 1 && wrong.standardError.contains("journal.weekly"), "\(wrong)")
  }

  @Test func weekAndMonthPagesAreTheSumsOfTheirDays() async throws {
    var generator = SeededGenerator(seed: 49)
    let start = Int64(1_795_996_800)  // 2026-11-30T00:00:00Z, a Monday
    for (index, repository) in [app, site].enumerated() {
      var script = FastImportScript()
      let times = (0..<40).map { _ in start + Int64.random(in: 0..<(35 * 86_400), using: &generator) }.sorted()
      for (number, time) in times.enumerated() {
        script.commit(
          branch: "main", email: TemporaryRepository.email, authorTime: time, committerTime: time, zone: "+0000",
          message: "Change \(index)-\(number)\n",
          changes: [
            .write(
              path: "f\(number % 4).txt",
              content: String(repeating: "line \(number)\n", count: Int.random(in: 1...6, using: &generator)))
          ])
      }
      try repository.importHistory(script)
    }
    try await rebuild("--since", "2026-11-30", "--until", "2027-01-03")
    let days = Day(year: 2026, month: 11, day: 30).through(Day(year: 2027, month: 1, day: 3))
    func sum(_ days: [Day], _ key: String) -> Int { days.reduce(0) { $0 + (frontMatter($1.description, key) ?? 0) } }
    var weekCommits = 0
    for week in stride(from: 0, to: 35, by: 7).map({ Week(containing: days[$0]) }) {
      let name = week.description
      #expect(frontMatter(name, "commits") == sum(week.days, "commits"), "\(name)")
      #expect(frontMatter(name, "insertions") == sum(week.days, "insertions"), "\(name)")
      #expect(frontMatter(name, "deletions") == sum(week.days, "deletions"), "\(name)")
      #expect(frontMatter(name, "activeDays") == week.days.filter { file($0.description) != nil }.count, "\(name)")
      weekCommits += frontMatter(name, "commits") ?? 0
      let page = try #require(file(name))
      for day in week.days where file(day.description) != nil { #expect(page.contains("- [[\(day)]] ")) }
    }
    #expect(weekCommits == 80)
    // 2026-12-31 is a Thursday: the week of 28 December is 2026-W53, and 2027-W01 starts on 4 January.
    #expect(file("2026-W53")?.contains("# Week 2026-W53: Monday, 28 December 2026 to Sunday, 3 January 2027") == true)
    #expect(file("2027-W01") == nil, "no day of 2027-W01 was rebuilt")
    let december = Month(containing: Day(year: 2026, month: 12, day: 1))
    #expect(frontMatter("2026-12", "commits") == sum(december.days, "commits"))
    #expect(frontMatter("2026-12", "insertions") == sum(december.days, "insertions"))
    #expect(frontMatter("2027-01", "commits") == sum(Month(containing: days.last!).days, "commits"))
    let month = try #require(file("2026-12"))
    #expect(month.contains("- [[2026-W49]]: ") && month.contains("← [[2026-11]] · [[2027-01]] →"))
  }

  @Test func theHookRefreshesTheWeekFromTheDayRecordsAndKeepsTheUsersText() async throws {
    try app.commit(file: "a", content: "1\n", message: "Monday", date: "2026-11-30T10:00:00Z")
    try await hook(in: app)
    let path = sandbox.journalDirectory + "/2026-W49.md"
    let page = try #require(file("2026-W49"))
    #expect(page.contains("1 commit in 1 project on 1 of 7 days, +1 -0"))
    // The user's text around the block, not valid UTF-8 at one place, and a key of their own.
    var bytes = Array("---\nmood: good\n".utf8) + Array(page.utf8.dropFirst(4)) + Array("\nWeek notes ".utf8)
    bytes += [0xFF, 0xFE] + Array(" end\n".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: path))

    try app.commit(file: "a", content: "1\n2\n", message: "Tuesday", date: "2026-12-01T10:00:00Z")
    try await hook(in: app)
    let updated = try #require(FileManager.default.contents(atPath: path))
    #expect(updated.starts(with: Array("---\nmood: good\nweek: 2026-W49\ncommits: 2\n".utf8)))
    let notes: [UInt8] = Array("\nWeek notes ".utf8) + [0xFF, 0xFE] + Array(" end\n".utf8)
    #expect(Array(updated.suffix(19)) == notes)
    let text = String(decoding: updated, as: UTF8.self)
    #expect(text.contains("- [[2026-11-30]] Monday: 1 commit in 1 project, +1 -0"))
    #expect(text.contains("- [[2026-12-01]] Tuesday: 1 commit in 1 project, +1 -0"))
    #expect(text.contains("No commits on Wednesday, Thursday, Friday, Saturday, Sunday"))

    // The other days come from their records: without Monday's, the week knows only what the hook writes now.
    unlink(sandbox.journalDirectory + "/.gitjournal/\(HostName.current)/2026-11-30.tsv")
    try app.commit(file: "a", content: "3\n", message: "Tuesday again", date: "2026-12-01T11:00:00Z")
    try await hook(in: app)
    #expect(frontMatter("2026-W49", "commits") == 2)
    #expect(file("2026-W49")?.contains("[[2026-11-30]]") == false)
  }

  /// A running week or month speaks only of the days that have begun: on a Saturday, Sunday is no day without
  /// commits yet, and the month names no week that has not begun. Once the week is over, a rebuild says it whole.
  @Test func aRunningWeekSpeaksOnlyOfDaysThatHaveBegun() async throws {
    try app.commit(file: "a", content: "1\n", message: "Thursday", date: "2026-12-03T10:00:00Z")
    let saturday = Date(timeIntervalSince1970: 1_796_472_000)  // 2026-12-05T12:00:00Z
    let hooked = await sandbox.run("hook", "post-commit", now: saturday, in: app.path)
    #expect(hooked.status == 0 && hooked.standardError.isEmpty, "\(hooked)")
    let week = try #require(file("2026-W49"))
    #expect(week.contains("1 commit in 1 project on 1 of 6 days, +1 -0"), "\(week)")
    #expect(week.contains("No commits on Monday, Tuesday, Wednesday, Friday, Saturday\n"), "\(week)")
    #expect(!week.contains("Saturday, Sunday"))
    #expect(frontMatter("2026-W49", "commits") == 1 && frontMatter("2026-W49", "activeDays") == 1)
    let month = try #require(file("2026-12"))
    #expect(month.contains("1 commit in 1 project on 1 of 5 days, +1 -0"), "\(month)")
    #expect(month.contains("- [[2026-W49]]: 1 commit in 1 project on 1 of 5 days"), "\(month)")
    for later in ["2026-W50", "2026-W51", "2026-W52", "2026-W53"] { #expect(!month.contains(later), "\(month)") }

    let monday = saturday.addingTimeInterval(2 * 86_400)
    let rebuilt = await sandbox.run(["rebuild", "2026-12-03"], now: monday)
    #expect(rebuilt.status == 0, "\(rebuilt)")
    let ended = try #require(file("2026-W49"))
    #expect(ended.contains("1 commit in 1 project on 1 of 7 days, +1 -0"), "\(ended)")
    #expect(ended.contains("No commits on Monday, Tuesday, Wednesday, Friday, Saturday, Sunday\n"), "\(ended)")
    #expect(file("2026-12")?.contains("1 commit in 1 project on 1 of 7 days, +1 -0") == true)
  }

  @Test func theHooksQuickReadOfTheLinksAgreesWithTheMerger() {
    let facts = DayFacts(day: Day(year: 2026, month: 11, day: 30), projects: [])
    let links = PageLinks(previous: "2026-11-27", up: "2026-W49", next: nil)
    let page = JournalPage(facts: facts, narrative: nil, calendar: JournalFixtures.calendar, links: links)
    let text = JournalMerger.merge(page: page, into: nil, day: facts.day) + "\nnotes\n"
    #expect(JournalMerger.links(in: text) == links)
    #expect(JournalMerger.links(inBytes: Array(text.utf8)) == links)
    let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
    #expect(JournalMerger.links(inBytes: Array(crlf.utf8)) == links)
    let none = JournalPage(facts: facts, narrative: nil, calendar: JournalFixtures.calendar)
    let plain = JournalMerger.merge(page: none, into: nil, day: facts.day)
    #expect(JournalMerger.links(in: plain) == nil && JournalMerger.links(inBytes: Array(plain.utf8)) == nil)
    #expect(JournalMerger.links(inBytes: Array("no block at all\n".utf8)) == nil)
  }
}
