import Foundation
import Testing

@testable import Facts
@testable import Narrative

/// The sentence end to end: the built binary installed as the hooks of a real repository, real `git commit`s,
/// the detached narrator, and a loopback model server whose request counts prove the backoff.
@Suite struct NarrativeHookTests {
  /// Every commit lands on yesterday noon (UTC), whatever the time the tests run.
  static func noon(plus minutes: Int = 0) -> Date {
    HookWorld.pastDate(daysAgo: 1, hour: 12, minute: minutes)
  }

  @Test(arguments: [NarrativeSettings.Engine.ollama, .openai])
  func sentenceAppearsAboveTheFactsAfterACommit(engine: NarrativeSettings.Engine) async throws {
    try await DedicatedThread.run {
      let world = try NarrativeWorld(ModelBehaviour(engine: engine), engine: engine)
      let run = try world.timedCommit("Teach the parser about tabs", authorDate: Self.noon())
      #expect(run.output.isEmpty, "git commit printed: \(run.output)")
      let commit = try world.hooks.describe("HEAD", in: world.repository)

      let journal = await world.journal(commit.day) { $0.contains(ModelBehaviour.sentence) }
      await world.finish()
      let text = try #require(journal, "no sentence in the journal; narrative.log: \(world.narrativeLog)")
      let lines = NarrativeWorld.blockLines(text)
      #expect(lines.first == ModelBehaviour.sentence)
      #expect(lines.dropFirst().first == "")
      #expect(lines.dropFirst(2).first?.hasPrefix("1 commit in 1 project") == true, "\(lines)")
      #expect(text.contains("Teach the parser about tabs"))
      #expect(world.server.healthRequestCount == 1)
      #expect(world.server.generationRequestCount == 1)
      let generation = try #require(world.server.requests.last)
      #expect(generation.path == (engine == .ollama ? "/api/generate" : "/v1/chat/completions"))
      #expect(generation.bodyText.contains("Teach the parser about tabs"))

      // `show --json` reports the same sentence; no request is needed for it.
      let seen = world.server.requests.count
      let show = try world.hooks.gitjournal("show", commit.day, "--json", in: world.repository)
      #expect(show.status == 0, "\(show.hookTestSummary)")
      let report = try JSONDecoder().decode(DayReport.self, from: Data(show.standardOutput.utf8))
      #expect(report.narrative == ModelBehaviour.sentence)

      // The hook again for the same facts (the file lost meanwhile): it writes the cached sentence itself and
      // starts no narrator.
      try FileManager.default.removeItem(atPath: world.hooks.journalDirectory + "/\(commit.day).md")
      let hook = try world.hooks.gitjournal("hook", "post-commit", in: world.repository)
      #expect(hook.status == 0, "\(hook.hookTestSummary)")
      #expect(world.hooks.journal(commit.day).map(NarrativeWorld.blockLines)?.first == ModelBehaviour.sentence)
      if NarratorProcesses.canSeeProcesses {
        #expect(NarratorProcesses.running(home: world.home).isEmpty, "a narrator was started for a cached sentence")
      }
      await world.finish()
      #expect(world.server.requests.count == seen)
    }
  }

  /// A commit in a private repository: the sentence still comes, and its subject is in no request.
  @Test func privateRepositorySubjectsNeverReachTheServer() async throws {
    try await DedicatedThread.run {
      let world = try NarrativeWorld(ModelBehaviour(.ollama))
      let secret = try world.hooks.makeRepository("code/client-x")
      let installed = try world.hooks.gitjournal("install", in: secret)
      try #require(installed.status == 0, "\(installed.hookTestSummary)")
      try world.configure("repo.client-x.private", "true")

      _ = try world.timedCommit("Teach the parser about tabs", authorDate: Self.noon())
      _ = try await world.journal(world.hooks.describe("HEAD", in: world.repository).day) {
        $0.contains(ModelBehaviour.sentence)
      }
      await world.finish()
      _ = try world.timedCommit("Draft the Initech acquisition memo", in: secret, authorDate: Self.noon(plus: 5))
      let day = try world.hooks.describe("HEAD", in: secret).day
      let journal = await world.journal(day) { $0.contains("Initech") && $0.contains(ModelBehaviour.sentence) }
      await world.finish()

      #expect(journal != nil, "narrative.log: \(world.narrativeLog)")
      // The day's facts went out twice (before and after the private commit); never with the private subject.
      #expect(world.server.generationRequestCount == 2)
      let bodies = world.server.requests.map(\.bodyText)
      #expect(bodies.filter { $0.contains("Teach the parser about tabs") }.count == 2)
      #expect(bodies.last?.contains("client-x") == true)
      #expect(!bodies.contains { $0.contains("Initech") || $0.contains("acquisition") })
    }
  }

  /// The hook starts a narrator only when the day lacks its sentence and the model is not paused, and no narrator
  /// ever waits for another: while one is at work (here the test holds its lock), the narrators the hooks start
  /// leave their days and exit at once, asking nothing. The next narrator that gets the lock narrates the newest
  /// facts once.
  @Test(.enabled(if: NarratorProcesses.canSeeProcesses, "counts the narrators in /proc"))
  func narratorsStartOnlyWhenNeededAndNeverWaitForEachOther() async throws {
    try await DedicatedThread.run {
      let world = try NarrativeWorld(ModelBehaviour(.ollama))
      let lock = try world.holdNarratorLock()
      let backoff = Backoff(stateDirectory: world.stateDirectory, server: "ollama \(world.server.baseURL)")
      backoff.pause(for: 60, reason: "a test pause", now: Date())
      _ = try world.timedCommit("Commit while paused", authorDate: Self.noon())
      #expect(NarratorProcesses.running(home: world.home).isEmpty, "a narrator was started during the pause")

      backoff.clear()
      _ = try world.timedCommit("First after the pause", authorDate: Self.noon(plus: 1))
      _ = try world.timedCommit("Second after the pause", authorDate: Self.noon(plus: 2))
      // Both hooks started a narrator (the pending file has their days); neither waits for the lock.
      let gone = await NarratorProcesses.waitUntilNoneRun(home: world.home, timeout: 3, ignoringLock: true)
      #expect(gone, "\(NarratorProcesses.running(home: world.home).count) narrators wait for the lock")
      let pending = (try? String(contentsOfFile: world.stateDirectory + "/narrator.pending", encoding: .utf8)) ?? ""
      #expect(pending.split(separator: "\n").count == 2, "pending: \(pending)")
      #expect(world.server.requests.isEmpty, "a narrator talked to the server while another held the lock")

      world.releaseNarratorLock(lock)
      _ = try world.timedCommit("Third after the pause", authorDate: Self.noon(plus: 3))
      let day = try world.hooks.describe("HEAD", in: world.repository).day
      let journal = await world.journal(day) { $0.contains(ModelBehaviour.sentence) }
      await world.finish()
      let text = try #require(journal, "no sentence; narrative.log: \(world.narrativeLog)")
      #expect(NarrativeWorld.blockLines(text).dropFirst(2).first?.hasPrefix("4 commits in 1 project") == true)
      #expect(world.server.healthRequestCount == 1)
      #expect(world.server.generationRequestCount == 1)
      #expect(world.server.requests.last?.bodyText.contains("Third after the pause") == true)
    }
  }

  /// While a narrator waits for a slow model, commits on its day and on another day start narrators that exit at
  /// once; the one at work narrates the newest facts of its day, then the other day, before it exits.
  @Test(.enabled(if: NarratorProcesses.canSeeProcesses, "counts the narrators in /proc"))
  func theNarratorAtWorkTakesOverTheDaysOfLaterCommits() async throws {
    try await DedicatedThread.run {
      var slow = ModelBehaviour(.ollama)
      slow.generationDelay = 1.5
      let world = try NarrativeWorld(slow, timeout: "10")
      _ = try world.timedCommit("Start the importer", authorDate: Self.noon())
      let day = try world.hooks.describe("HEAD", in: world.repository).day
      let asked = await world.server.waitUntil(timeout: 5) { $0.generationRequestCount >= 1 }
      try #require(asked, "no narrator asked; narrative.log: \(world.narrativeLog)")

      _ = try world.timedCommit("Finish the importer", authorDate: Self.noon(plus: 1))
      let earlier = Self.noon().addingTimeInterval(-86_400)
      _ = try world.timedCommit("Backdated fix", authorDate: earlier)
      let earlierDay = try world.hooks.describe("HEAD", in: world.repository).day
      // The two hooks' narrators found the first at work and left: one narrator runs.
      try await Task.sleep(nanoseconds: 800_000_000)
      #expect(NarratorProcesses.running(home: world.home).count == 1, "narrators queued behind the one at work")

      let latest = await world.journal(day, timeout: 15) {
        $0.contains(ModelBehaviour.sentence) && $0.contains("2 commits")
      }
      let other = await world.journal(earlierDay, timeout: 10) { $0.contains(ModelBehaviour.sentence) }
      await world.finish(timeout: 15)
      #expect(latest != nil, "the newest facts got no sentence; narrative.log: \(world.narrativeLog)")
      #expect(other != nil, "the other day got no sentence; narrative.log: \(world.narrativeLog)")
      let generations = world.server.requests.filter { ModelServer.generationPaths.contains($0.path) }
      #expect(generations.count == 3, "\(generations.map(\.bodyText))")
      #expect(generations.dropFirst().first?.bodyText.contains("Finish the importer") == true)
      #expect(generations.last?.bodyText.contains("Backdated fix") == true)
    }
  }

  /// No server at all (the default engine, never installed): the narrator's health check is refused, it records the
  /// pause and exits at once, and no commit during the pause starts another.
  @Test(.enabled(if: NarratorProcesses.canSeeProcesses, "counts the narrators in /proc"))
  func nothingListeningEndsTheNarratorAtOnce() async throws {
    try await DedicatedThread.run {
      let world = try NarrativeWorld(ModelBehaviour(.ollama), retryDelay: "60")
      try world.configure("narrative.url", try ModelServer.refusingURL())
      let started = Date()
      _ = try world.timedCommit("Nobody listens", authorDate: Self.noon())
      let ended = await NarratorProcesses.waitUntilNoneRun(home: world.home, timeout: 5)
      let seconds = Date().timeIntervalSince(started)
      #expect(ended, "the narrator still runs \(seconds) s after the commit")
      #expect(world.backoffUntil != nil, "no pause was recorded; narrative.log: \(world.narrativeLog)")
      #expect(world.narrativeLog.contains("nothing listens"), "\(world.narrativeLog)")
      _ = try world.timedCommit("Still nobody", authorDate: Self.noon(plus: 1))
      #expect(NarratorProcesses.running(home: world.home).isEmpty, "a narrator was started during the pause")
      NarratorProcesses.killAll(home: world.home)
    }
  }

  /// A server that answers and keeps failing (503) is tried once more after the pause, not again and again.
  @Test func aServerThatKeepsFailingIsTriedOnceMoreAtMost() async throws {
    try await DedicatedThread.run {
      let world = try NarrativeWorld(
        ModelBehaviour(.ollama, generationFault: .busy), healthTimeout: "1", timeout: "2", retryDelay: "1")
      _ = try world.timedCommit("Busy server", authorDate: Self.noon())
      let retried = await world.server.waitUntil(timeout: 8) { $0.generationRequestCount >= 2 }
      #expect(retried, "no retry after the pause; narrative.log: \(world.narrativeLog)")
      // Long enough for two more pauses: a narrator that kept retrying would have asked again.
      let done = await NarratorProcesses.waitUntilNoneRun(home: world.home, timeout: 4)
      #expect(done, "the narrator still runs after its one retry")
      #expect(world.server.generationRequestCount == 2, "\(world.server.requests.map(\.path))")
      NarratorProcesses.killAll(home: world.home)
    }
  }

  /// A server that accepts and never answers (or drips) slows no commit: `git commit`, read through a pipe
  /// until every holder of it is gone, takes as long as with the model turned off. The narrator the hook
  /// started gives up at its deadline, and the file keeps its facts without a sentence.
  @Test(arguments: [ServerFault.silent, .drip])
  func deadServerNeverSlowsACommit(fault: ServerFault) async throws {
    try await DedicatedThread.run {
      // A long health timeout: a commit that waited for the narrator would take seconds, not milliseconds.
      let world = try NarrativeWorld(ModelBehaviour(.ollama, healthFault: fault), healthTimeout: "3")
      try world.configure("narrative.engine", "off")
      _ = try world.timedCommit("Warm up", authorDate: Self.noon())
      var off: [Double] = []
      for index in 1...5 {
        off.append(try world.timedCommit("Engine off \(index)", authorDate: Self.noon(plus: index)).seconds)
      }

      try world.configure("narrative.engine", "ollama")
      var dead: [Double] = []
      var outputs: [String] = []
      for index in 1...5 {
        let run = try world.timedCommit("Dead model \(index)", authorDate: Self.noon(plus: 10 + index))
        dead.append(run.seconds)
        outputs.append(run.output)
      }
      let day = try world.hooks.describe("HEAD", in: world.repository).day
      // The hooks did start narrators, and they did reach the server while the commits ran.
      let reached = await world.server.waitUntil(timeout: 5) { $0.healthRequestCount >= 1 }
      // Once it has failed, the narrator waits out its pause to try again; this test is about the commits.
      let deadline = Date().addingTimeInterval(6)
      while !world.narrativeLog.contains("health check") && Date() < deadline { usleep(50_000) }
      NarratorProcesses.killAll(home: world.home)

      #expect(reached, "no narrator reached the server; narrative.log: \(world.narrativeLog)")
      let offMedian = PipedRun.median(off)
      let deadMedian = PipedRun.median(dead)
      // A commit that waited would take the 3 s health timeout; the margin is for two cores shared with the rest
      // of a parallel test run, not for waiting.
      #expect(deadMedian < offMedian + 1, "median commit: \(deadMedian) s with a dead model, \(offMedian) s off")
      // Not one commit waited, the first (whose narrator surely started) included.
      #expect(dead.max()! < off.max()! + 1, "commits took \(dead) s with a dead model, \(off) s off")
      #expect(outputs.allSatisfy { $0.isEmpty }, "git commit printed: \(outputs)")
      // One health check for all five commits: the first narrator's failure paused the others.
      #expect(world.server.healthRequestCount == 1)
      #expect(world.server.generationRequestCount == 0)
      #expect(world.narrativeLog.contains("health check"), "narrative.log: \(world.narrativeLog)")

      let journal = try #require(world.hooks.journal(day))
      let lines = NarrativeWorld.blockLines(journal)
      #expect(lines.first?.hasPrefix("11 commits in 1 project") == true, "\(lines.prefix(3))")
      #expect(!journal.contains(ModelBehaviour.sentence))
    }
  }

  enum Outage: String, CaseIterable, Sendable {
    /// Every request fails: the health check is the only one.
    case serverError
    /// The health check passes, generation answers 503.
    case busyGeneration

    var behaviour: ModelBehaviour {
      switch self {
      case .serverError: return ModelBehaviour(.ollama, healthFault: .internalError, generationFault: .internalError)
      case .busyGeneration: return ModelBehaviour(.ollama, generationFault: .busy)
      }
    }
  }

  /// 20 commits during an outage make one health check (and at most one generation), not 20: the pause is
  /// persisted and every hook and narrator process honours it. When it is over and the server is back, the
  /// next commit's narrator adds the sentence.
  @Test(arguments: Outage.allCases)
  func twentyCommitsDuringAnOutageMakeOneHealthCheck(outage: Outage) async throws {
    try await DedicatedThread.run {
      let retryDelay = 5.0
      let world = try NarrativeWorld(
        outage.behaviour, healthTimeout: "1", timeout: "2", retryDelay: String(Int(retryDelay)))
      var lastCommitEnd = Date()
      for index in 1...20 {
        _ = try world.timedCommit("Outage commit \(index)", authorDate: Self.noon(plus: index))
        lastCommitEnd = Date()
      }
      let day = try world.hooks.describe("HEAD", in: world.repository).day
      // The narrator that failed waits out the pause to try again (see the next test): stop it, so that what
      // follows is the next commit's doing.
      NarratorProcesses.killAll(home: world.home)

      // The failure: the health check, and the generation when the health check passes.
      let requests = world.server.requests
      let failing = outage == .busyGeneration ? ["/api/tags", "/api/generate"] : ["/api/tags"]
      #expect(requests.prefix(failing.count).map(\.path) == failing)
      let failedAt = try #require(requests.prefix(failing.count).last, "no request at all").receivedAt
      // Then nothing until the pause is over (a slow machine may outlast it: later requests are allowed).
      let pauseEnd = failedAt.addingTimeInterval(retryDelay - 0.2)
      let duringPause = requests.dropFirst(failing.count).filter { $0.receivedAt < pauseEnd }
      #expect(duringPause.isEmpty, "sent during the pause: \(duringPause.map(\.path))")
      if lastCommitEnd < pauseEnd {
        let beforePauseEnd = requests.filter { $0.receivedAt < pauseEnd }
        #expect(beforePauseEnd.count == failing.count, "20 commits made \(beforePauseEnd.map(\.path))")
      }
      let until = try #require(world.backoffUntil, "no pause was written; narrative.log: \(world.narrativeLog)")
      let journal = try #require(world.hooks.journal(day))
      #expect(NarrativeWorld.blockLines(journal).first?.hasPrefix("20 commits in 1 project") == true)
      #expect(!journal.contains(ModelBehaviour.sentence))

      // The server recovers; once the pause is over, the next commit brings the sentence.
      world.server.behave(ModelBehaviour(.ollama))
      let wait = until.timeIntervalSinceNow + 0.2
      if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000)) }
      let seen = world.server.requests.count
      _ = try world.timedCommit("Back to work", authorDate: Self.noon(plus: 30))
      let recovered = await world.journal(day) { $0.contains(ModelBehaviour.sentence) }
      await world.finish()
      let text = try #require(recovered, "no sentence after the pause; narrative.log: \(world.narrativeLog)")
      #expect(NarrativeWorld.blockLines(text).first == ModelBehaviour.sentence)
      #expect(NarrativeWorld.blockLines(text).dropFirst(2).first?.hasPrefix("21 commits in 1 project") == true)
      #expect(world.server.requests.dropFirst(seen).map(\.path) == ["/api/tags", "/api/generate"])
    }
  }

  /// The server fails in the middle of the day and comes back: the narrator that failed waits out the pause
  /// and tries again, so the sentence appears after the retry delay with no further commit.
  @Test func aFailedNarratorTriesAgainAfterThePauseWithoutAnotherCommit() async throws {
    try await DedicatedThread.run {
      let retryDelay = 2.0
      let world = try NarrativeWorld(
        ModelBehaviour(.ollama, generationFault: .busy), healthTimeout: "1", timeout: "2",
        retryDelay: String(Int(retryDelay)))
      _ = try world.timedCommit("Only commit", authorDate: Self.noon())
      let day = try world.hooks.describe("HEAD", in: world.repository).day
      let failed = await world.server.waitUntil(timeout: 5) { $0.generationRequestCount >= 1 }
      #expect(failed, "the narrator never asked; narrative.log: \(world.narrativeLog)")
      let failedAt = Date()
      world.server.behave(ModelBehaviour(.ollama))

      let recovered = await world.journal(day, timeout: retryDelay + 8) { $0.contains(ModelBehaviour.sentence) }
      let elapsed = Date().timeIntervalSince(failedAt)
      await world.finish()
      let text = try #require(recovered, "no sentence after the pause; narrative.log: \(world.narrativeLog)")
      #expect(NarrativeWorld.blockLines(text).first == ModelBehaviour.sentence)
      #expect(elapsed > retryDelay - 0.5, "the sentence came after \(elapsed) s, before the pause ended")
      // Nothing was sent during the pause.
      let generations = world.server.requests.filter { $0.path == "/api/generate" }
      #expect(generations.count == 2)
      if generations.count == 2 {
        #expect(generations[1].receivedAt.timeIntervalSince(generations[0].receivedAt) >= retryDelay - 0.2)
      }
    }
  }
}
