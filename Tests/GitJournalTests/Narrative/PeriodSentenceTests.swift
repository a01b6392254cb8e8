import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import Narrative
@testable import Support

/// The week's and the month's sentence end to end: the built binary as the hooks of a real repository, the detached
/// narrator asking a loopback model server after the day's sentence, `rebuild` after its days, the guard, the cache,
/// and the narrator that finds the week moved on.
@Suite struct PeriodSentenceTests {
  /// Tuesday 24 November 2026, noon UTC: its week is 2026-W48 (23 to 29 November), its month 2026-11 (30 days).
  static let tuesday = Date(timeIntervalSince1970: 1_795_521_600)
  static let wednesday = tuesday.addingTimeInterval(86_400)
  static let week = "2026-W48"
  static let month = "2026-11"

  /// A model that copies the facts it is given: the day's prompt gets `ModelBehaviour.sentence`, a week's or a
  /// month's its own counts back ("This week I made 2 commits on 2 days, working on app."), or `periodAnswer`,
  /// after `periodDelay` seconds.
  static func copyingModel(periodAnswer: String? = nil, periodDelay: Double = 0) -> ModelServer.Script {
    { request in
      var behaviour = ModelBehaviour(.ollama)
      let prompt = request.bodyText
      if let unit = ["week", "month"].first(where: { prompt.contains("what did I work on this \($0)?") }) {
        behaviour.sentence = periodAnswer ?? answer(unit: unit, prompt: prompt)
        behaviour.generationDelay = periodDelay
      }
      return behaviour.action(for: request)
    }
  }

  /// The sentence a model that copies the numbers writes for a period's prompt.
  static func answer(unit: String, prompt: String) -> String {
    guard let match = prompt.firstMatch(of: /This (?:week|month) I committed (once|twice|\d+) (?:times )?on (\d+) of/),
      let days = Int(match.output.2)
    else { return "no facts found" }
    let counted = String(match.output.1)
    let commits = counted == "once" ? 1 : counted == "twice" ? 2 : Int(counted) ?? 0
    return "This \(unit) I made \(commits) \(commits == 1 ? "commit" : "commits") on \(days) "
      + "\(days == 1 ? "day" : "days"), working on app."
  }

  static func periodPrompts(_ server: ModelServer) -> [String] {
    server.requests(to: "/api/generate").map(\.bodyText).map { body in
      body.contains("this week?") ? "week" : body.contains("this month?") ? "month" : "day"
    }
  }

  @Test func theWeekAndTheMonthGetTheirSentenceAfterTheDay() async throws {
    try await DedicatedThread.run {
      let world = try NarrativeWorld(ModelBehaviour(.ollama), periodPages: true)
      world.server.setScript(Self.copyingModel())
      _ = try world.timedCommit("Teach the parser about tabs", authorDate: Self.tuesday)
      let day = try world.hooks.describe("HEAD", in: world.repository).day
      let first = "This week I made 1 commit on 1 day, working on app."
      let weekly = await world.journal(Self.week, timeout: 15) { $0.contains(first) }
      let monthly = await world.journal(Self.month, timeout: 15) { $0.contains("This month I made 1 commit") }
      await world.finish()
      let text = try #require(weekly, "no sentence on the week's page; narrative.log: \(world.narrativeLog)")
      let lines = NarrativeWorld.blockLines(text)
      #expect(lines.first == first)
      #expect(lines.dropFirst().first == "")
      #expect(lines.dropFirst(2).first == "1 commit in 1 project on 1 of 7 days, +1 -0", "\(lines)")
      #expect(monthly.map(NarrativeWorld.blockLines)?.first == "This month I made 1 commit on 1 day, working on app.")
      #expect(world.hooks.journal(day).map(NarrativeWorld.blockLines)?.first == ModelBehaviour.sentence)
      // The day first, then its week, then its month: one request each, with the period's own numbers.
      #expect(Self.periodPrompts(world.server) == ["day", "week", "month"])
      let prompts = world.server.requests(to: "/api/generate").map(\.bodyText)
      #expect(prompts[1].contains("This week I committed once on 1 of 7 days.") && prompts[1].contains("tabs"))
      #expect(prompts[2].contains("This month I committed once on 1 of 30 days."))

      // Another day of the week: the week's facts changed, and so does its sentence.
      _ = try world.timedCommit("Handle CRLF", authorDate: Self.wednesday)
      let second = try world.hooks.describe("HEAD", in: world.repository).day
      let updated = await world.journal(Self.week, timeout: 15) {
        $0.contains("This week I made 2 commits on 2 days, working on app.")
      }
      await world.finish()
      #expect(updated != nil, "narrative.log: \(world.narrativeLog)")
      #expect(Self.periodPrompts(world.server) == ["day", "week", "month", "day", "week", "month"])

      // Nothing changed: a rebuild of both days finds every sentence cached and asks nothing.
      let pages = [Self.week, Self.month, day, second].map { world.hooks.journal($0) }
      let seen = world.server.requests.count
      let rebuilt = try world.hooks.gitjournal("rebuild", day, second, in: world.repository)
      #expect(rebuilt.status == 0, "\(rebuilt.hookTestSummary)")
      #expect([Self.week, Self.month, day, second].map { world.hooks.journal($0) } == pages)
      #expect(world.server.requests.count == seen)
    }
  }

  /// The guard holds for a week as for a day: an answer with numbers the week's facts do not have is asked for once
  /// more, then dropped; the page keeps its facts, and these facts are not asked about again.
  @Test func aRejectedWeekSentenceIsNotShown() async throws {
    try await DedicatedThread.run {
      let world = try NarrativeWorld(ModelBehaviour(.ollama), periodPages: true)
      world.server.setScript(Self.copyingModel(periodAnswer: "This week I made 9 commits, working on app."))
      _ = try world.timedCommit("Teach the parser about tabs", authorDate: Self.tuesday)
      let day = try world.hooks.describe("HEAD", in: world.repository).day
      _ = await world.journal(day, timeout: 15) { $0.contains(ModelBehaviour.sentence) }
      let asked = await world.server.waitUntil(timeout: 15) { Self.periodPrompts($0).count == 5 }
      await world.finish()
      #expect(asked, "\(Self.periodPrompts(world.server)); narrative.log: \(world.narrativeLog)")
      #expect(Self.periodPrompts(world.server) == ["day", "week", "week", "month", "month"])
      let lines = try #require(world.hooks.journal(Self.week).map(NarrativeWorld.blockLines))
      #expect(lines.first == "1 commit in 1 project on 1 of 7 days, +1 -0", "\(lines)")
      #expect(!(world.hooks.journal(Self.week) ?? "").contains("9 commits"))
      #expect(
        world.narrativeLog.contains("\(Self.week): sentence rejected, states the number 9"), "\(world.narrativeLog)")
      let retry = try #require(world.server.requests(to: "/api/generate").dropFirst(2).first?.bodyText)
      #expect(retry.contains("My last answer was rejected"))

      let narrate = try world.hooks.gitjournal("narrate", day, in: world.repository)
      #expect(narrate.status == 0, "\(narrate.hookTestSummary)")
      #expect(
        narrate.standardError.contains(
          "\(Self.week): no sentence: no request, the answers for these facts were rejected before"),
        "\(narrate.hookTestSummary)")
      #expect(world.server.requests(to: "/api/generate").count == 5, "rejected facts were asked about again")
    }
  }

  /// A server that fails the day's request pauses the model: the narrator tries the day once more after the pause,
  /// and asks nothing for the week or the month.
  @Test func aFailureForTheDayAsksNothingForItsWeek() async throws {
    try await DedicatedThread.run {
      let world = try NarrativeWorld(
        ModelBehaviour(.ollama, generationFault: .internalError), retryDelay: "1", periodPages: true)
      _ = try world.timedCommit("Teach the parser about tabs", authorDate: Self.tuesday)
      await world.finish()
      #expect(world.backoffUntil != nil, "no pause; narrative.log: \(world.narrativeLog)")
      #expect(Self.periodPrompts(world.server) == ["day", "day"])
      #expect(world.hooks.journal(Self.week).map(NarrativeWorld.blockLines)?.first?.hasPrefix("1 commit") == true)
    }
  }

  /// A narrator that asked about the week before another commit of that week never puts its sentence on the page:
  /// the page moved on, and the sentence that lands is the one for the newest facts.
  @Test(.enabled(if: NarratorProcesses.canSeeProcesses, "waits for the narrators in /proc"))
  func aNarratorDoesNotAttachToAWeekThatMovedOn() async throws {
    try await DedicatedThread.run {
      let world = try NarrativeWorld(ModelBehaviour(.ollama), timeout: "8", periodPages: true)
      world.server.setScript(Self.copyingModel(periodDelay: 1.5))
      _ = try world.timedCommit("Teach the parser about tabs", authorDate: Self.tuesday)
      let waiting = await world.server.waitUntil(timeout: 15) { Self.periodPrompts($0).count >= 2 }
      try #require(waiting, "the narrator never asked about the week; narrative.log: \(world.narrativeLog)")

      // While the model writes the one-commit week's sentence, a commit on Wednesday changes the week.
      _ = try world.timedCommit("Handle CRLF", authorDate: Self.wednesday)
      var stale: String?
      let deadline = Date().addingTimeInterval(30)
      while Date() < deadline {
        if let text = world.hooks.journal(Self.week), text.contains("made 1 commit") { stale = text }
        if NarratorProcesses.running(home: world.home).isEmpty { break }
        usleep(20_000)
      }
      await world.finish()
      #expect(stale == nil, "the sentence for the older facts was attached:\n\(stale ?? "")")
      let lines = try #require(world.hooks.journal(Self.week).map(NarrativeWorld.blockLines))
      #expect(lines.first == "This week I made 2 commits on 2 days, working on app.", "\(lines)")
      #expect(lines.dropFirst(2).first?.hasPrefix("2 commits in 1 project on 2 of 7 days") == true)
      // The older week's sentence was written, cached, and never shown.
      #expect(Self.periodPrompts(world.server).filter { $0 == "week" }.count == 2)
    }
  }
}

/// The same, in process: a week's sentence attaches only to the facts it was written for, is shared with the
/// other machines, and is cached under the week's facts signature.
@Suite struct PeriodSentenceAttachTests {
  static let day = Day(year: 2026, month: 3, day: 10)
  static let week = PeriodFacts.Period.week(Week(containing: day))

  @Test func aSentenceForOlderFactsIsNotAttached() async throws {
    let sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    try sandbox.register(app)
    try app.commit(file: "a.txt", content: "a\n", message: "Fix the sync", date: "2026-03-09T09:00:00Z")
    #expect(await sandbox.run("rebuild", "2026-03-09").status == 0)
    let environment = sandbox.environment()
    let journaling = Journaling(configuration: try Configuration.load(environment), environment: environment)
    let older = try await journaling.recorded(Self.week)
    #expect(older.facts.commitCount == 1)

    try app.commit(file: "a.txt", content: "b\n", message: "Fix the export", date: "2026-03-10T09:00:00Z")
    #expect(await sandbox.run("rebuild", "2026-03-10").status == 0)
    let page = try #require(sandbox.journalFile("2026-W11"))
    #expect(try await journaling.attach("This week I fixed the sync.", to: older) == false)
    #expect(sandbox.journalFile("2026-W11") == page, "the page moved on, and was changed anyway")

    let newer = try await journaling.recorded(Self.week)
    #expect(try await journaling.attach("This week I fixed the sync and the export.", to: newer))
    let lines = NarrativeWorld.blockLines(try #require(sandbox.journalFile("2026-W11")))
    #expect(lines.first == "This week I fixed the sync and the export.")
    // The week is running (Tuesday): its page speaks of the two days that have begun.
    #expect(lines.dropFirst(2).first?.hasPrefix("2 commits in 1 project on 2 of 2 days") == true)

    // A page that is gone gets no sentence, and is not made again by one.
    try FileManager.default.removeItem(atPath: sandbox.journalDirectory + "/2026-W11.md")
    #expect(try await journaling.attach("This week I fixed the sync and the export.", to: newer) == false)
    #expect(sandbox.journalFile("2026-W11") == nil)
  }

  /// Whichever machine narrates the week, the other shows the same sentence for the same facts, model or not.
  @Test func aWeeksSentenceIsSharedWithTheOtherMachines() async throws {
    let machines = try TwoMachines()
    let (laptop, desktop, app, site) = (machines.laptop, machines.desktop, machines.app, machines.site)
    try app.commit(file: "a.txt", content: "a\n", message: "Fix the sync", date: "2026-03-10T09:00:00Z")
    try site.commit(file: "s.txt", content: "s\n", message: "Older work", date: "2026-03-02T09:00:00Z")
    #expect(await laptop.run("rebuild", "2026-03-10").status == 0)
    let environment = laptop.environment()
    let journaling = Journaling(configuration: try Configuration.load(environment), environment: environment)
    let sentence = "This week I fixed the sync."
    #expect(try await journaling.attach(sentence, to: try await journaling.recorded(Self.week)))
    #expect(HookWorld.exists(laptop.journalDirectory + "/.gitjournal/laptop/sentences/2026-W11.tsv"))

    try machines.carryLaptopRecords()
    #expect(await desktop.run("rebuild", "2026-03-10").status == 0)
    #expect(desktop.journalFile("2026-W11") == laptop.journalFile("2026-W11"))
    #expect(desktop.journalFile("2026-W11").map(NarrativeWorld.blockLines)?.first == sentence)
  }

  /// The narrator's cache key is the period's facts signature: the same facts find the sentence without a request,
  /// a commit on any day of the week does not, and neither does the day with the same facts.
  @Test func theCacheIsKeyedByThePeriodsFactsSignature() async throws {
    try await DedicatedThread.run {
      let server = try ModelServer(script: PeriodSentenceTests.copyingModel())
      let fixture = try NarratorFixture(url: server.baseURL, timeout: 5)
      let tuesday = NarratorFixture.facts(day: 10, subjects: ["Teach the parser about tabs"])
      let week = PeriodFacts(period: Self.week, days: [tuesday])
      let narrator = try fixture.narrator()
      let calendar = NarratorFixture.calendar
      let sentence = await narrator.sentence(for: week, calendar: calendar)
      #expect(sentence == "This week I made 1 commit on 1 day, working on app.", "\(fixture.log)")
      #expect(server.generationRequestCount == 1)

      let again = try fixture.narrator()
      #expect(again.cachedSentence(for: week, calendar: calendar) == sentence)
      #expect(await again.sentence(for: week, calendar: calendar) == sentence)
      #expect(server.generationRequestCount == 1, "the same facts reached the model twice")
      #expect(again.cachedSentence(for: tuesday, calendar: calendar) == nil, "a day's facts found the week's sentence")
      let month = PeriodFacts(period: .month(Month(containing: Self.day)), days: [tuesday])
      #expect(again.cachedSentence(for: month, calendar: calendar) == nil)
      let wednesday = NarratorFixture.facts(day: 11, subjects: ["Handle CRLF"])
      let moved = PeriodFacts(period: Self.week, days: [tuesday, wednesday])
      #expect(again.cachedSentence(for: moved, calendar: calendar) == nil)

      let cache = SentenceCache(cacheDirectory: fixture.environment().cacheDirectory, settings: fixture.settings)
      let signature = week.signature(calendar: calendar)
      #expect(cache.sentence(signature: signature, page: .period) == sentence)
      #expect(cache.sentence(signature: signature) == nil, "the day's prompt version keys the day's sentences")
      #expect(cache.key(signature: signature, page: .period) != cache.key(signature: signature))
    }
  }
}

/// `rebuild` narrates the weeks and months of its days after the days, from the records it just wrote; without a
/// model, or with one that is down, every page is what it is with one, minus the sentence.
@Suite struct PeriodSentenceRebuildTests {
  let sandbox: JournalSandbox

  init() async throws {
    sandbox = try await DedicatedThread.run {
      let sandbox = try JournalSandbox()
      let app = try sandbox.makeRepository("app")
      try sandbox.register(app)
      // Sunday 8 March (week 10), Monday 9 and Tuesday 10 March (week 11).
      for (day, subject) in [("08", "Start the importer"), ("09", "Fix the sync"), ("10", "Add export")] {
        try app.commit(file: "a.txt", content: "\(day)\n", message: subject, date: "2026-03-\(day)T09:00:00Z")
      }
      return sandbox
    }
  }

  func rebuild(_ extra: String...) throws -> CommandResult {
    let result = try BinaryRunner.run(
      ["rebuild", "--since", "2026-03-08", "--until", "2026-03-10"] + extra, environment: sandbox.binaryEnvironment,
      currentDirectory: sandbox.home)
    return CommandResult(
      status: result.status, standardOutput: result.standardOutput, standardError: result.standardError)
  }

  /// Every page of the journal folder, by file name.
  func pages() -> [String: String] {
    Dictionary(
      uniqueKeysWithValues: sandbox.journalFolderNames().map { ($0, sandbox.journalFile(String($0.dropLast(3))) ?? "") }
    )
  }

  func useModel(at url: String) throws {
    try sandbox.configure("narrative.engine", "ollama")
    try sandbox.configure("narrative.url", url)
    try sandbox.configure("narrative.healthTimeout", "1")
    try sandbox.configure("narrative.timeout", "5")
  }

  @Test func theWeeksAndMonthsAreNarratedAfterTheDays() async throws {
    try await DedicatedThread.run {
      let server = try ModelServer(script: PeriodSentenceTests.copyingModel())
      try useModel(at: server.baseURL)
      let facts = try rebuild("--no-narrative")
      #expect(facts.status == 0, "\(facts)")
      #expect(server.requests.isEmpty)

      let narrated = try rebuild()
      #expect(narrated.status == 0, "\(narrated)")
      #expect(PeriodSentenceTests.periodPrompts(server) == ["day", "day", "day", "week", "week", "month"])
      let weeks = server.requests(to: "/api/generate").map(\.bodyText).filter { $0.contains("this week?") }
      #expect(weeks.first?.contains("This week I committed twice on 2 of 7 days.") == true, "week 11 first")
      #expect(weeks.last?.contains("This week I committed once on 1 of 7 days.") == true)
      #expect(narrated.standardOutput.contains("Added the model's sentence to 3 days."), "\(narrated)")
      #expect(narrated.standardOutput.contains("Added the model's sentence to 2 weeks and 1 month."), "\(narrated)")
      let first = { (name: String) in sandbox.journalFile(name).map(NarrativeWorld.blockLines)?.first }
      #expect(first("2026-W11") == "This week I made 2 commits on 2 days, working on app.")
      #expect(first("2026-W10") == "This week I made 1 commit on 1 day, working on app.")
      #expect(first("2026-03") == "This month I made 3 commits on 3 days, working on app.")

      let seen = server.requests.count
      let files = pages()
      let again = try rebuild()
      #expect(again.status == 0, "\(again)")
      #expect(server.requests.count == seen, "the second rebuild asked again")
      #expect(pages() == files)
    }
  }

  @Test func withoutTheModelOnlyTheSentenceIsMissing() async throws {
    try await DedicatedThread.run {
      let off = try rebuild()
      #expect(off.status == 0, "\(off)")
      let facts = pages()
      #expect(
        Set(facts.keys) == [
          "2026-03-08.md", "2026-03-09.md", "2026-03-10.md", "2026-W10.md", "2026-W11.md", "2026-03.md",
        ])
      #expect(!HookWorld.exists(sandbox.home + "/.cache/gitjournal/sentences"))
      #expect(!HookWorld.exists(sandbox.home + "/.cache/gitjournal/rejections"))

      // Nothing listens at the model's address: the same bytes.
      let down = try ModelServer(script: PeriodSentenceTests.copyingModel())
      let address = down.baseURL
      down.stop()
      try useModel(at: address)
      let failed = try rebuild()
      #expect(failed.status == 0, "\(failed)")
      #expect(pages() == facts, "a model server that is down changed the pages")

      // A model: each page gets its sentence above the same facts, and nothing else changes.
      let server = try ModelServer(script: PeriodSentenceTests.copyingModel())
      try useModel(at: server.baseURL)
      let narrated = try rebuild()
      #expect(narrated.status == 0, "\(narrated)")
      let narratedPages = pages()
      #expect(Set(narratedPages.keys) == Set(facts.keys))
      for (name, text) in facts {
        let without = try #require(JournalFixtures.parts(of: text), "\(name)")
        let with = try #require(narratedPages[name].flatMap(JournalFixtures.parts(of:)), "\(name)")
        #expect(with.frontMatter == without.frontMatter && with.before == without.before && with.after == without.after)
        let lines = with.body.components(separatedBy: "\n")
        #expect(lines.count > 2 && !lines[0].isEmpty && lines[1].isEmpty, "\(name): \(lines)")
        #expect(lines.dropFirst(2).joined(separator: "\n") == without.body, "\(name)")
      }
    }
  }
}
