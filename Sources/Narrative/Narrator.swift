import Facts
import GitReader
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Gets the day's sentence when it can be had and returns nil otherwise: no server, a slow or broken one,
/// a pause after a failure, or two answers the guard rejects. Nothing here is an error for the journal.
public actor Narrator {
  private let engine: any NarrativeEngine
  /// The engine with a shorter timeout, for a second try that only has what the first left: the HTTP client's own
  /// deadline then bounds it, with no timer task that a busy thread pool could run late.
  private let engineWithTimeout: @Sendable (Double) -> any NarrativeEngine
  private let cache: SentenceCache
  private let backoff: Backoff
  private let retryDelay: Double
  /// Seconds for a day's sentence, both tries included.
  private let deadline: Double
  private let now: @Sendable () -> Date
  private let log: @Sendable (String) -> Void
  private var healthCheck: Task<ServerHealth, Never>?
  /// The pause after a failure, also kept here in case the state folder cannot be written.
  private var pausedUntil: Date?
  /// Whether this narrator's last failure came from a server that answered (and so may answer well after a
  /// pause, as a server loading its model does) rather than from an address where nothing listens.
  private var lastFailureWasAnswered: Bool?
  /// Retries after a pause this narrator may still make: one, so a failing server costs one waiting process
  /// for one pause, never a queue of them.
  private var retriesLeft = 1
  /// Why the last `sentence(for:)` gave none, in words for a person (`narrate` prints it); nil after a sentence.
  /// One line without control characters: it may quote what a server sent (see `OneLineText`).
  public var lastProblem: String? { problem.map { OneLineText.make($0, limit: 1_000) } }
  private var problem: String?

  init(
    engine: any NarrativeEngine, engineWithTimeout: @escaping @Sendable (Double) -> any NarrativeEngine,
    cache: SentenceCache, backoff: Backoff, retryDelay: Double, deadline: Double,
    now: @escaping @Sendable () -> Date, log: @escaping @Sendable (String) -> Void
  ) {
    self.engine = engine
    self.engineWithTimeout = engineWithTimeout
    self.cache = cache
    self.backoff = backoff
    self.retryDelay = min(
      max(retryDelay.isNaN ? 60 : retryDelay, NarrativeSettings.retryDelayBounds.lowerBound),
      NarrativeSettings.retryDelayBounds.upperBound)
    self.deadline = Self.boundedSeconds(deadline)
    self.now = now
    self.log = log
  }

  /// A narrator for the configured engine, or nil when the engine is off or cannot be used (a remote URL
  /// without allowRemote: logged once).
  public static func make(
    settings: NarrativeSettings, environment: Environment, log: @escaping @Sendable (String) -> Void
  ) -> Narrator? {
    let settings = settings.bounded
    guard let engine = NarrativeEngines.make(settings: settings, environment: environment, log: log) else { return nil }
    let engineWithTimeout: @Sendable (Double) -> any NarrativeEngine = { seconds in
      var shorter = settings
      shorter.timeout = seconds
      return NarrativeEngines.make(settings: shorter, environment: environment, log: { _ in }) ?? engine
    }
    return Narrator(
      engine: engine, engineWithTimeout: engineWithTimeout,
      cache: SentenceCache(cacheDirectory: environment.cacheDirectory, settings: settings),
      backoff: NarrativeEngines.backoff(settings: settings, environment: environment),
      retryDelay: settings.retryDelay, deadline: settings.timeout, now: environment.now, log: log)
  }

  /// The cached sentence for these facts, without any request.
  public nonisolated func cachedSentence(for facts: DayFacts, calendar: JournalCalendar) -> String? {
    facts.isEmpty ? nil : cache.sentence(signature: facts.signature(calendar: calendar))
  }

  /// The cached sentence for a week's or a month's facts, without any request.
  public nonisolated func cachedSentence(for period: PeriodFacts, calendar: JournalCalendar) -> String? {
    period.isEmpty ? nil : cache.sentence(signature: period.signature(calendar: calendar), page: .period)
  }

  /// The pause in force, with the failure that began it (whichever gitjournal process met it) and the seconds until
  /// it ends, or nil.
  public nonisolated func pause() -> (reason: String, remaining: Double)? {
    backoff.current(now: now()).map { ($0.reason, max(0, $0.until.timeIntervalSince(now()))) }
  }

  /// True while a failure's pause is in force.
  public nonisolated func isBackingOff() -> Bool { pause() != nil }

  /// Seconds until the pause after a failure ends, or nil when there is none.
  public nonisolated func pauseRemaining() -> Double? { pause()?.remaining }

  /// Seconds to wait before this narrator's one retry, or nil when it should stop now: no failure of its own,
  /// a retry already made, or a failure where nothing listens (no model server is running: a user who never
  /// installed one keeps no process waiting). Only a server that answered and failed (a timeout, a 503 while it
  /// loads its model) is waited for, once.
  public func takeRetry() -> Double? {
    guard lastFailureWasAnswered == true, retriesLeft > 0, let remaining = pauseRemaining() else { return nil }
    retriesLeft -= 1
    return min(max(remaining, 0), retryDelay) + 0.25
  }

  /// The sentence for `facts`: from the cache, or from the model when it is up and not paused. An answer the guard
  /// rejects is asked for once more, with the reason, within the same deadline; when that one is rejected too the
  /// day keeps its factual line, and these facts are not asked about again (SentenceCache's rejections).
  public func sentence(for facts: DayFacts, calendar: JournalCalendar) async -> String? {
    guard !facts.isEmpty else {
      problem = "no commits, so no sentence"
      return nil
    }
    return await sentence(
      for: Request(
        name: facts.day.description, page: .day, signature: facts.signature(calendar: calendar),
        prompt: { Prompt(facts: facts) },
        grounding: { Grounding(facts: facts) }))
  }

  /// The sentence for a week's or a month's facts, as `sentence(for:calendar:)` gets a day's: its own prompt of the
  /// period's numbers, the same guard, its own cache keys.
  public func sentence(for period: PeriodFacts, calendar: JournalCalendar) async -> String? {
    guard !period.isEmpty else {
      problem = "no commits, so no sentence"
      return nil
    }
    return await sentence(
      for: Request(
        name: period.name, page: .period, signature: period.signature(calendar: calendar),
        prompt: { Prompt(period: period) }, grounding: { Grounding(period: period) }))
  }

  /// What one sentence is asked for: the page's name (for the log), its facts' signature, and the prompt and guard
  /// made from those facts, built only when the model is asked.
  private struct Request {
    let name: String
    let page: SentenceCache.Page
    let signature: String
    let prompt: () -> Prompt
    let grounding: () -> Grounding

    /// What is left on the page without a sentence.
    var keeps: String { page == .day ? "the day keeps its factual line" : "the page keeps its factual line" }
  }

  private func sentence(for request: Request) async -> String? {
    problem = nil
    let signature = request.signature
    let name = request.name
    if let cached = cache.sentence(signature: signature, page: request.page) { return cached }
    if let rejection = cache.rejection(signature: signature, page: request.page) {
      explain("\(name): no request, the answers for these facts were rejected before (\(rejection))")
      return nil
    }
    if let pause = backoff.current(now: now()) {
      problem =
        "no request: the model server failed recently (\(pause.reason)); the pause ends in "
        + "\(SecondsText.format(max(0, pause.until.timeIntervalSince(now())).rounded(.up))) s"
      return nil
    }
    if let pausedUntil, now() < pausedUntil {
      problem = "no request: the model server failed a moment ago"
      return nil
    }
    guard await isServerUp() else { return nil }

    let prompt = request.prompt()
    let grounding = request.grounding()
    let clock = ContinuousClock()
    let start = clock.now
    var asked = prompt
    var reasons: [String] = []
    for attempt in 1...Self.maximumTries {
      let elapsed = start.duration(to: clock.now).components
      let remaining = deadline - Double(elapsed.seconds) - Double(elapsed.attoseconds) / 1e18
      if attempt > 1 && remaining < Self.shortestTry {
        explain("\(name): no time left for another try within narrative.timeout; \(request.keeps)")
        return nil
      }
      let raw: String
      backoff.markRequest(for: retryDelay, now: now())
      do {
        raw = try await (attempt == 1 ? engine : engineWithTimeout(remaining)).write(
          system: asked.system, prompt: asked.user)
        backoff.endRequest()
      } catch is CancellationError {
        backoff.endRequest()
        return nil
      } catch {
        if Task.isCancelled {
          backoff.endRequest()
          return nil
        }
        if attempt > 1 && start.duration(to: clock.now) >= .seconds(deadline - Self.shortestTry) {
          // The second try had only what the first left: no sign of a broken server, so no pause, and nothing
          // remembered (the next run asks again).
          backoff.endRequest()
          explain("\(name): no second answer within narrative.timeout; \(request.keeps)")
          return nil
        }
        if case NarrativeError.unreachable = error {
          fail("\(name): \(error)", answered: false)
        } else {
          fail("\(name): \(error)", answered: true)
        }
        return nil
      }
      switch SentenceGuard.check(raw, prompt: prompt.user, question: prompt.asked, grounding: grounding) {
      case .accepted(let sentence):
        try? cache.store(sentence, signature: signature, page: request.page)
        return sentence
      case .rejected(let reason):
        reasons.append(reason)
        log("\(name): sentence rejected, \(reason): \(raw.prefix(200).replacingEvery("\n", with: " "))")
        asked = prompt.retrying(after: reason)
      }
    }
    try? cache.storeRejection(reasons.joined(separator: "; "), signature: signature, page: request.page)
    problem = "the model's answers were rejected: \(reasons.joined(separator: "; "))"
    return nil
  }

  /// Logs `line` and keeps it as the reason there is no sentence.
  private func explain(_ line: String) {
    problem = line
    log(line)
  }

  /// The first answer and one more after a rejection.
  static let maximumTries = 2

  /// Seconds below which a second try is not started: no model answers that fast.
  static let shortestTry = 0.1

  /// Seconds as a `Duration` can hold them: a configured 1e300 is a year.
  static func boundedSeconds(_ seconds: Double) -> Double {
    seconds.isFinite ? min(max(seconds, 0), 365 * 86_400) : 365 * 86_400
  }

  /// One health check per process, shared by concurrent callers. Cancelling the caller that started it cancels its
  /// request; a cancelled check says nothing about the server, so it is neither kept nor a reason to pause.
  private func isServerUp() async -> Bool {
    if let healthCheck { return await healthCheck.value == .up }
    let engine = self.engine
    backoff.markRequest(for: retryDelay, now: now())
    let check = Task { await engine.health() }
    healthCheck = check
    let health = await withTaskCancellationHandler {
      await check.value
    } onCancel: {
      check.cancel()
    }
    if check.isCancelled {
      if healthCheck == check { healthCheck = nil }
      backoff.endRequest()
      return false
    }
    switch health {
    case .up:
      backoff.endRequest()
    case .unreachable:
      fail(
        "the model server did not answer its health check: nothing listens at its address (is it running? "
          + "narrative.engine = off turns the model off)", answered: false)
    case .failing:
      fail(
        engine is OllamaEngine
          ? "the model server did not answer its health check (GET /api/tags); if it is llama-server or LM Studio, "
            + "set narrative.engine = openai"
          : "the model server did not answer its health check (GET /v1/models)", answered: true)
    }
    return health == .up
  }

  private func fail(_ reason: String, answered: Bool) {
    backoff.pause(for: retryDelay, reason: reason, now: now())
    pausedUntil = now().addingTimeInterval(retryDelay)
    lastFailureWasAnswered = answered
    problem = reason
    // The next try, after the pause, checks the server afresh.
    healthCheck = nil
    log("\(reason); no request to the model server for \(SecondsText.format(retryDelay)) s")
  }
}

/// Builds the configured engine.
package enum NarrativeEngines {
  static func make(
    settings: NarrativeSettings, environment: Environment, log: @Sendable (String) -> Void
  ) -> (any NarrativeEngine)? {
    do {
      return try engine(settings: settings, environment: environment)
    } catch {
      log(error.description)
      return nil
    }
  }

  /// The engine `settings` name, nil when the model is off; throws when its address is unusable or not this
  /// machine's (unless `narrative.allowRemote`).
  package static func engine(
    settings: NarrativeSettings, environment: Environment
  ) throws(NarrativeError) -> (any NarrativeEngine)? {
    guard settings.engine != .off else { return nil }
    let endpoint = try JSONEndpoint(
      baseURL: settings.baseURL(environment: environment), allowRemote: settings.allowRemote)
    switch settings.engine {
    case .ollama: return OllamaEngine(endpoint: endpoint, settings: settings)
    case .openai: return OpenAIEngine(endpoint: endpoint, settings: settings)
    case .off: return nil
    }
  }

  package static func backoff(settings: NarrativeSettings, environment: Environment) -> Backoff {
    Backoff(
      stateDirectory: environment.stateDirectory,
      server: "\(settings.engine.rawValue) \(settings.baseURL(environment: environment))")
  }
}
