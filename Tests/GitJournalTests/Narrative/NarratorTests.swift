import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Narrative

/// The narrator against a real loopback server: a sentence or nil (never an error), the persisted backoff,
/// one shared health check, the cache, the guard and privacy, each proven by the requests the server saw.
@Suite struct NarratorTests {
  static let calendar = NarratorFixture.calendar
  static let engines: [NarrativeSettings.Engine] = [.ollama, .openai]

  @Test(arguments: engines)
  func correctServerGivesTheSentenceAndCachesIt(engine: NarrativeSettings.Engine) async throws {
    let server = try ModelServer(ModelBehaviour(engine: engine))
    let fixture = try NarratorFixture(url: server.baseURL, engine: engine)
    let narrator = try fixture.narrator()
    let facts = NarratorFixture.facts()
    #expect(await narrator.sentence(for: facts, calendar: Self.calendar) == ModelBehaviour.sentence)
    #expect(server.healthRequestCount == 1)
    #expect(server.generationRequestCount == 1)
    #expect(narrator.cachedSentence(for: facts, calendar: Self.calendar) == ModelBehaviour.sentence)
    #expect(fixture.sentenceFiles.count == 1)
    #expect(!narrator.isBackingOff())
  }

  @Test func emptyDayAsksNothing() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama))
    let fixture = try NarratorFixture(url: server.baseURL)
    let narrator = try fixture.narrator()
    let empty = DayFacts(day: Day(year: 2026, month: 3, day: 10), projects: [])
    #expect(await narrator.sentence(for: empty, calendar: Self.calendar) == nil)
    #expect(server.requests.isEmpty)
    #expect(fixture.sentenceFiles.isEmpty)
  }

  // MARK: Failures: nil, then silence for retryDelay, in this process and the next.

  /// Faults that leave the answer unfinished: the client has to give up at its deadline.
  static let unfinished: Set<ServerFault> = [.silent, .late, .drip]

  /// Every way the generation can fail gives nil (the client giving up at its deadline when the answer never
  /// completes), and then no request of any kind reaches the server: not from this narrator, not from a new
  /// one (another process), until the pause is over.
  @Test(arguments: engines, ServerFault.allCases)
  func failedGenerationGivesNilAndPauses(engine: NarrativeSettings.Engine, fault: ServerFault) async throws {
    let server = try ModelServer(ModelBehaviour(engine == .openai ? .openAI : .ollama, generationFault: fault))
    let fixture = try NarratorFixture(url: server.baseURL, engine: engine, timeout: 1, retryDelay: 60)
    let narrator = try fixture.narrator()
    #expect(await narrator.sentence(for: NarratorFixture.facts(day: 10), calendar: Self.calendar) == nil)
    if Self.unfinished.contains(fault) {
      let generation = try #require(server.requests.first { ModelServer.generationPaths.contains($0.path) })
      try await expectGivenUp(generation, on: server, after: 1)
    }
    #expect(server.healthRequestCount == 1)
    #expect(server.generationRequestCount == 1)
    #expect(narrator.isBackingOff())
    #expect(fixture.log.contains("2026-03-10"), "the failure is not logged: \(fixture.log)")
    #expect(fixture.sentenceFiles.isEmpty)

    try await expectSilenceDuringThePause(server: server, fixture: fixture, narrator: narrator)
  }

  /// A failed health check: nil (given up at the health timeout, not the generation's), no generation, then the
  /// same silence.
  @Test(arguments: ServerFault.healthFaults)
  func failedHealthCheckGivesNilAndPauses(fault: ServerFault) async throws {
    let server = try ModelServer(ModelBehaviour(.ollama, healthFault: fault))
    let fixture = try NarratorFixture(url: server.baseURL, healthTimeout: 0.5, timeout: 30)
    let narrator = try fixture.narrator()
    #expect(await narrator.sentence(for: NarratorFixture.facts(day: 10), calendar: Self.calendar) == nil)
    if Self.unfinished.contains(fault) {
      try await expectGivenUp(try #require(server.requests.first), on: server, after: 0.5)
    }
    #expect(server.healthRequestCount == 1)
    #expect(server.generationRequestCount == 0)
    #expect(narrator.isBackingOff())
    #expect(fixture.log.contains("health check"), "log: \(fixture.log)")

    try await expectSilenceDuringThePause(server: server, fixture: fixture, narrator: narrator)
  }

  @Test func refusedConnectionGivesNilAndPauses() async throws {
    let fixture = try NarratorFixture(url: try ModelServer.refusingURL())
    let narrator = try fixture.narrator()
    #expect(await narrator.sentence(for: NarratorFixture.facts(), calendar: Self.calendar) == nil)
    #expect(try fixture.narrator().isBackingOff())
    #expect(FileManager.default.fileExists(atPath: fixture.backoffPath))
  }

  /// The client closed the connection of `request` `seconds` after sending it: its deadline, as the server saw it
  /// (the server's threads measure it, whatever the load on the test process's threads).
  func expectGivenUp(
    _ request: ModelServer.Request, on server: ModelServer, after seconds: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try #require(await server.waitUntil { $0.clientClosed(request) != nil }, sourceLocation: sourceLocation)
    // The server reads the request a little after the client's clock started (more so on a busy machine), so
    // it sees somewhat less than the deadline; never more, and never nothing.
    let patience = try #require(server.clientPatience(request), sourceLocation: sourceLocation)
    #expect(
      patience > 0.1 && patience < seconds + 0.6, "the client waited \(patience) s, not \(seconds) s",
      sourceLocation: sourceLocation)
  }

  /// After a failure: another day in the same process, the same day in a new narrator (a new process), and
  /// a new narrator whose clock is almost at the end of the pause: none sends anything. Once the pause is
  /// over, a new narrator asks again.
  func expectSilenceDuringThePause(server: ModelServer, fixture: NarratorFixture, narrator: Narrator) async throws {
    // It lasts retryDelay from the failure, which the narrator recorded between the server's receipt of the last
    // request and now (seconds apart on a machine whose pool is busy with the suite's other tests).
    let now = Date()
    let until = try #require(fixture.backoffUntil, "no pause was written")
    let failedAt = try #require(server.requests.last).receivedAt
    let retryDelay = fixture.settings.retryDelay
    #expect(
      until >= failedAt.addingTimeInterval(retryDelay - 0.5) && until <= now.addingTimeInterval(retryDelay + 0.5),
      "a pause until \(until.timeIntervalSince(failedAt)) s after the request, \(until.timeIntervalSince(now)) s from now"
    )
    let seen = server.requests.count
    server.behave(ModelBehaviour(engine: fixture.settings.engine))
    #expect(await narrator.sentence(for: NarratorFixture.facts(day: 11), calendar: Self.calendar) == nil)
    let nextProcess = try fixture.narrator()
    #expect(nextProcess.isBackingOff())
    #expect(await nextProcess.sentence(for: NarratorFixture.facts(day: 10), calendar: Self.calendar) == nil)
    let almostOver = try fixture.narrator(now: until.addingTimeInterval(-1))
    #expect(await almostOver.sentence(for: NarratorFixture.facts(day: 12), calendar: Self.calendar) == nil)
    #expect(server.requests.count == seen, "requests during the pause: \(server.requests.dropFirst(seen).map(\.path))")

    let later = try fixture.narrator(now: until.addingTimeInterval(1))
    #expect(!later.isBackingOff())
    #expect(
      await later.sentence(for: NarratorFixture.facts(day: 10), calendar: Self.calendar) == ModelBehaviour.sentence)
    #expect(server.requests.count == seen + 2)
  }

  /// The pause is about one server: pointing the config at another starts afresh.
  @Test func pauseBelongsToTheServerThatFailed() async throws {
    let broken = try ModelServer(ModelBehaviour(.ollama, healthFault: .internalError))
    let working = try ModelServer(ModelBehaviour(.ollama))
    var fixture = try NarratorFixture(url: broken.baseURL)
    #expect(try await fixture.narrator().sentence(for: NarratorFixture.facts(), calendar: Self.calendar) == nil)
    fixture.settings.url = working.baseURL
    #expect(
      try await fixture.narrator().sentence(for: NarratorFixture.facts(), calendar: Self.calendar)
        == ModelBehaviour.sentence)
    fixture.settings.url = broken.baseURL
    #expect(try fixture.narrator().isBackingOff())
  }

  // MARK: Concurrency

  /// Ten callers at once in one process: one health check between them, then one generation each.
  @Test func concurrentCallersShareOneHealthCheck() async throws {
    var behaviour = ModelBehaviour(.ollama)
    behaviour.healthDelay = 0.3
    let server = try ModelServer(behaviour)
    let fixture = try NarratorFixture(url: server.baseURL, healthTimeout: 2, timeout: 5)
    let narrator = try fixture.narrator()
    let sentences = await withTaskGroup(of: String?.self) { group in
      for day in 1...10 {
        group.addTask { await narrator.sentence(for: NarratorFixture.facts(day: day), calendar: Self.calendar) }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(sentences == Array(repeating: ModelBehaviour.sentence, count: 10))
    #expect(server.healthRequestCount == 1)
    #expect(server.generationRequestCount == 10)
    #expect(fixture.sentenceFiles.count == 10)
  }

  @Test func concurrentCallersShareOneFailedHealthCheck() async throws {
    var behaviour = ModelBehaviour(.ollama, healthFault: .busy)
    behaviour.healthDelay = 0.3
    let server = try ModelServer(behaviour)
    let fixture = try NarratorFixture(url: server.baseURL, healthTimeout: 2)
    let narrator = try fixture.narrator()
    let sentences = await withTaskGroup(of: String?.self) { group in
      for day in 1...10 {
        group.addTask { await narrator.sentence(for: NarratorFixture.facts(day: day), calendar: Self.calendar) }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(sentences.allSatisfy { $0 == nil })
    #expect(sentences.count == 10)
    #expect(server.healthRequestCount == 1)
    #expect(server.generationRequestCount == 0)
    // One failure, logged once.
    #expect(fixture.log.components(separatedBy: "health check").count == 2, "log: \(fixture.log)")
  }

  /// How long the cancellation tests wait for the request to reach the server. The narrator's health check is a
  /// task of its own on the cooperative pool, which the suite's other tests keep busy (two threads, each blocked
  /// while a `git` or `gitjournal` child runs): at its start, its queue held the check for over a minute.
  static let requestArrival = 240.0

  /// Cancelling the caller closes the generation's connection at once, and is not the server's fault.
  @Test func cancellationReachesTheGenerationRequest() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama, generationFault: .silent))
    let fixture = try NarratorFixture(url: server.baseURL, timeout: 30)
    let narrator = try fixture.narrator()
    let probe = await DedicatedThread.run {
      await CancellationProbe.cancel {
        await narrator.sentence(for: NarratorFixture.facts(), calendar: Self.calendar)
      } once: {
        await server.waitUntil(timeout: Self.requestArrival) { $0.generationRequestCount == 1 }
      }
    }
    let (sentence, _, cancelledAt) = try #require(probe, "the generation never reached the server")
    #expect(sentence == nil)
    try await expectClosedByTheCancellation(
      try #require(server.requests(to: "/api/generate").first), on: server, after: cancelledAt, deadline: 30)
    #expect(!narrator.isBackingOff(), "a cancelled request paused the model")
    #expect(!FileManager.default.fileExists(atPath: fixture.backoffPath))
  }

  /// The same during the health check: cancelling the only caller closes its connection; no pause follows.
  @Test func cancellationReachesTheHealthCheck() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama, healthFault: .silent))
    let fixture = try NarratorFixture(url: server.baseURL, healthTimeout: 60)
    let narrator = try fixture.narrator()
    let probe = await DedicatedThread.run {
      await CancellationProbe.cancel {
        await narrator.sentence(for: NarratorFixture.facts(), calendar: Self.calendar)
      } once: {
        await server.waitUntil(timeout: Self.requestArrival) { $0.healthRequestCount == 1 }
      }
    }
    let (sentence, _, cancelledAt) = try #require(probe, "the health check never reached the server")
    #expect(sentence == nil)
    try await expectClosedByTheCancellation(
      try #require(server.requests.first), on: server, after: cancelledAt, deadline: 60)
    #expect(!narrator.isBackingOff(), "a cancelled health check paused the model")
    #expect(!FileManager.default.fileExists(atPath: fixture.backoffPath))
  }

  /// The request's connection was closed by the client after `cancelledAt`, and not by its `deadline` (seconds
  /// from the request's arrival), which is far enough away that only the cancellation can have closed it.
  func expectClosedByTheCancellation(
    _ request: ModelServer.Request, on server: ModelServer, after cancelledAt: Date, deadline: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    await server.waitUntil(timeout: deadline / 2) { $0.clientClosed(request) != nil }
    let closed = try #require(
      server.clientClosed(request), "the connection is still open", sourceLocation: sourceLocation)
    #expect(closed >= cancelledAt, "closed before the cancellation", sourceLocation: sourceLocation)
    #expect(
      closed < request.receivedAt.addingTimeInterval(deadline), "closed by the deadline", sourceLocation: sourceLocation
    )
  }

  /// llama-server passes the ollama engine's health check, then has no /api/generate: the log says what to do.
  @Test func llamaServerBehindTheOllamaEngineIsExplainedInTheLog() async throws {
    let server = try ModelServer(ModelBehaviour(.llamaServer))
    let fixture = try NarratorFixture(url: server.baseURL)
    #expect(try await fixture.narrator().sentence(for: NarratorFixture.facts(), calendar: Self.calendar) == nil)
    #expect(server.requests.map(\.path) == ["/api/tags", "/api/generate"])
    #expect(fixture.log.contains("narrative.engine = openai"), "log: \(fixture.log)")
    #expect(try fixture.narrator().isBackingOff())
  }

  // MARK: Cache

  @Test func unchangedFactsNeverReachTheModelAgain() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama))
    var fixture = try NarratorFixture(url: server.baseURL)
    let facts = NarratorFixture.facts(subjects: ["Teach the parser about tabs"])
    let narrator = try fixture.narrator()
    #expect(await narrator.sentence(for: facts, calendar: Self.calendar) == ModelBehaviour.sentence)
    #expect(server.generationRequestCount == 1)
    let seen = server.requests.count

    // The same facts: from the cache, in this process and in the next, with no request at all.
    server.behave(ModelBehaviour(.ollama, sentence: "I worked on the parser again."))
    #expect(await narrator.sentence(for: facts, calendar: Self.calendar) == ModelBehaviour.sentence)
    #expect(try await fixture.narrator().sentence(for: facts, calendar: Self.calendar) == ModelBehaviour.sentence)
    #expect(server.requests.count == seen)

    // New facts for the day, or another model: a new sentence.
    let more = NarratorFixture.facts(subjects: ["Teach the parser about tabs", "Handle CRLF"])
    #expect(
      await narrator.sentence(for: more, calendar: Self.calendar) == "I worked on the parser again.")
    #expect(server.generationRequestCount == 2)
    fixture.settings.model = "qwen3:1.7b"
    #expect(
      try await fixture.narrator().sentence(for: facts, calendar: Self.calendar)
        == "I worked on the parser again.")
    #expect(server.generationRequestCount == 3)
  }

  // MARK: Guard

  /// What the model writes and what reaches the journal.
  @Test(arguments: [
    (
      "<think>They made 12 commits; I should say so.</think>\nI taught the parser about tabs.",
      "I taught the parser about tabs."
    ),
    ("<think>\nreasoning\n</think>I taught the parser about tabs.", "I taught the parser about tabs."),
    ("\"I taught the parser about tabs.\"", "I taught the parser about tabs."),
    ("  “I taught the parser about tabs.”  \n", "I taught the parser about tabs."),
    ("'I taught the parser about tabs'", "I taught the parser about tabs."),
    ("I taught the parser about tabs. Then she went home early.", "I taught the parser about tabs."),
    ("I taught the parser about tabs.\n\nI hope this summary helps!", "I taught the parser about tabs."),
  ])
  func acceptedSentencesAreCleanedUp(raw: String, expected: String) async throws {
    let server = try ModelServer(ModelBehaviour(.ollama, sentence: raw))
    let fixture = try NarratorFixture(url: server.baseURL)
    let facts = NarratorFixture.facts()
    #expect(try await fixture.narrator().sentence(for: facts, calendar: Self.calendar) == expected)
    #expect(try fixture.narrator().cachedSentence(for: facts, calendar: Self.calendar) == expected)
  }

  /// Rejected text falls back to no sentence (after one more try), no sentence is cached, and `narrative.log`
  /// says why.
  @Test(arguments: [
    ("", "empty"),
    ("  \n\n  ", "empty"),
    ("<think>I taught the parser about tabs.</think>", "empty"),
    ("I made 9731 commits today.", "9731"),
    ("I spent 45 minutes on the parser.", "45"),
    (
      "I taught the parser about tabs " + String(repeating: "and then kept going ", count: 20) + "until dusk.", "long"
    ),
  ])
  func rejectedSentencesFallBackToNothing(raw: String, reason: String) async throws {
    let server = try ModelServer(ModelBehaviour(.ollama, sentence: raw))
    // The server answers at once; a long deadline only keeps a loaded machine from leaving no time for the
    // second try, which this test counts.
    let fixture = try NarratorFixture(url: server.baseURL, timeout: 10)
    let facts = NarratorFixture.facts()
    let narrator = try fixture.narrator()
    #expect(await narrator.sentence(for: facts, calendar: Self.calendar) == nil)
    #expect(server.generationRequestCount == 2)
    #expect(narrator.cachedSentence(for: facts, calendar: Self.calendar) == nil)
    #expect(fixture.sentenceFiles.isEmpty)
    let log = fixture.log
    #expect(log.contains("2026-03-10") && log.contains("rejected"), "log: \(log)")
    #expect(log.lowercased().contains(reason), "the log does not say why (\(reason)): \(log)")
  }

  // MARK: One more try, then remembered

  /// An answer that says what the facts do not, for "Teach the parser about tabs".
  static let inventedAnswer = "I taught the parser about tabs for the new website."

  /// The first answer is rejected; the second request carries the reason, and its grounded answer is kept.
  @Test(arguments: engines)
  func aRejectedAnswerIsAskedForOnceMore(engine: NarrativeSettings.Engine) async throws {
    let server = try ModelServer(script: { request in
      let again = request.bodyText.contains("rejected")
      return ModelBehaviour(engine: engine, sentence: again ? "I taught the parser about tabs." : Self.inventedAnswer)
        .action(for: request)
    })
    let fixture = try NarratorFixture(url: server.baseURL, engine: engine, timeout: 10)
    let facts = NarratorFixture.facts()
    #expect(
      try await fixture.narrator().sentence(for: facts, calendar: Self.calendar) == "I taught the parser about tabs.")
    #expect(server.healthRequestCount == 1)
    let generations = server.requests.filter { ModelServer.generationPaths.contains($0.path) }
    #expect(generations.count == 2)
    #expect(generations.last?.bodyText.contains("website") == true, "the reason is not in the second request")
    #expect(fixture.sentenceFiles.count == 1)
    #expect(fixture.rejectionFiles.isEmpty)
    #expect(fixture.log.contains("sentence rejected, says what the facts do not ('new', 'website')"), "\(fixture.log)")
  }

  /// Two rejected answers: the day keeps its factual line, and no process asks about these facts again (not even
  /// a health check) until the facts or the model change.
  @Test func twoRejectionsAreRememberedUntilTheFactsOrTheModelChange() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama, sentence: Self.inventedAnswer))
    var fixture = try NarratorFixture(url: server.baseURL, timeout: 10)
    let facts = NarratorFixture.facts()
    #expect(try await fixture.narrator().sentence(for: facts, calendar: Self.calendar) == nil)
    #expect(server.generationRequestCount == 2)
    #expect(fixture.rejectionFiles.count == 1)
    #expect(!(try fixture.narrator().isBackingOff()), "a rejection is no server failure")

    let seen = server.requests.count
    #expect(try await fixture.narrator().sentence(for: facts, calendar: Self.calendar) == nil)
    #expect(server.requests.count == seen, "asked again: \(server.requests.map(\.path))")
    #expect(fixture.log.contains("no request, the answers for these facts were rejected before"), "\(fixture.log)")

    // New facts for the day, or another model: asked again.
    server.behave(ModelBehaviour(.ollama, sentence: "I worked on the parser."))
    let more = NarratorFixture.facts(subjects: ["Teach the parser about tabs", "Handle CRLF"])
    #expect(try await fixture.narrator().sentence(for: more, calendar: Self.calendar) == "I worked on the parser.")
    fixture.settings.model = "qwen3:1.7b"
    #expect(try await fixture.narrator().sentence(for: facts, calendar: Self.calendar) == "I worked on the parser.")
    #expect(server.generationRequestCount == 4)
  }

  /// The second try has what the first left of narrative.timeout: a slow second answer is given up at the
  /// deadline, without a pause (the server did answer) and without remembering the facts as rejected.
  @Test func theSecondTryKeepsToTheSameDeadline() async throws {
    let server = try ModelServer(script: { request in
      let answer = ModelBehaviour(.ollama, sentence: Self.inventedAnswer).action(for: request)
      guard ModelServer.generationPaths.contains(request.path) else { return answer }
      return .delay(request.bodyText.contains("rejected") ? 60 : 1, then: answer)
    })
    // 10 s, so that a first answer slowed by a busy machine (seconds at load 4 on two cores) still leaves time
    // for a second try.
    let fixture = try NarratorFixture(url: server.baseURL, timeout: 10)
    #expect(try await fixture.narrator().sentence(for: NarratorFixture.facts(), calendar: Self.calendar) == nil)
    let generations = server.requests.filter { ModelServer.generationPaths.contains($0.path) }
    #expect(generations.count == 2)
    // About 9 s of the 10 were left for the second answer.
    let second = try #require(generations.last)
    try await expectGivenUp(second, on: server, after: 9)
    #expect(!(try fixture.narrator().isBackingOff()))
    #expect(fixture.rejectionFiles.isEmpty)
    #expect(fixture.log.contains("no second answer within narrative.timeout"), "\(fixture.log)")
  }

  /// Numbers the facts do contain are fine.
  @Test func numbersFromTheFactsAreKept() async throws {
    let raw = "I made 2 commits to app and taught the parser about tabs."
    let server = try ModelServer(ModelBehaviour(.ollama, sentence: raw))
    let facts = NarratorFixture.facts(subjects: ["Teach the parser about tabs", "Handle CRLF"])
    let fixture = try NarratorFixture(url: server.baseURL)
    #expect(try await fixture.narrator().sentence(for: facts, calendar: Self.calendar) == raw)
    #expect(fixture.sentenceFiles.count == 1)
  }

  // MARK: Privacy

  /// A private project gives the model its counts only: its subjects appear in no request, with either engine.
  @Test(arguments: engines)
  func privateSubjectsNeverLeaveTheProcess(engine: NarrativeSettings.Engine) async throws {
    let server = try ModelServer(ModelBehaviour(engine: engine))
    let fixture = try NarratorFixture(url: server.baseURL, engine: engine)
    let day = Day(year: 2026, month: 3, day: 10)
    let start = Self.calendar.window(of: day).start + 10 * 3600
    func commit(_ index: Int, _ subject: String) -> CommitRecord {
      CommitRecord(
        id: .repeating(String(index)), authorName: "Ada", authorEmail: "ada@example.com",
        authoredAt: start + Int64(index) * 60, authorOffsetMinutes: 0, subject: subject, isMerge: false,
        stats: DiffStats(filesChanged: 1, insertions: 3, deletions: 1))
    }
    let facts = DayFacts(
      day: day,
      projects: [
        ProjectFacts(
          name: "app", path: "/code/app", isPrivate: false, commits: [commit(1, "Teach the parser about tabs")]),
        ProjectFacts(
          name: "client-x", path: "/code/client-x", isPrivate: true,
          commits: [commit(2, "Draft the Initech acquisition memo"), commit(3, "Price the Globex layoffs")]),
      ])
    #expect(try await fixture.narrator().sentence(for: facts, calendar: Self.calendar) == ModelBehaviour.sentence)
    let bodies = server.requests.map(\.bodyText)
    #expect(server.generationRequestCount == 1)
    // The public subject is there, so the bodies are the right place to look.
    #expect(bodies.contains { $0.contains("Teach the parser about tabs") })
    for secret in ["Initech", "Globex", "acquisition", "layoffs"] {
      #expect(!bodies.contains { $0.contains(secret) }, "'\(secret)' was sent to the model")
    }
  }
}
