import Foundation
import Testing

extension Reliability {
  /// Nothing leaves the machine unless the user says so: a model server that is not on loopback is refused
  /// before a single packet is sent (a listener on this machine's own network address sees no connection), and
  /// a private repository's subjects are in no request a loopback server receives.
  @Suite struct PrivacyTests {
    static let day = "2026-03-10"

    /// Nothing is listening where a refused narrator would connect if it tried; `allowRemote` proves it would
    /// have been seen.
    @Test func remoteServerIsRefusedBeforeAnyConnection() throws {
      let sandbox = try JournalSandbox()
      let repository = try sandbox.makeRepository("app")
      try repository.commit(
        file: "a.txt", content: "a\n", message: "Teach the parser about tabs", date: "\(Self.day)T09:00:00Z")
      try sandbox.register(repository)
      let counter = try ConnectionCounter()
      // This machine's own address on a network interface: not loopback, yet a connection to it would reach the
      // counter. A machine without one gets an address where a connection attempt would hang instead.
      let localAddress = ConnectionCounter.nonLoopbackAddress()
      let host = localAddress ?? "10.255.255.1"
      let url = "http://\(host):\(counter.port)"
      try sandbox.configure("narrative.engine", "ollama")
      try sandbox.configure("narrative.url", url)
      try sandbox.configure("narrative.healthTimeout", "10")
      try sandbox.configure("narrative.timeout", "5")
      let log = sandbox.stateHome + "/gitjournal/narrative.log"
      func logText() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

      var tried = 0
      var passed = 0
      func expectRefused(_ arguments: [String], environment extra: [String: String] = [:], _ what: String) throws {
        tried += 1
        let before = logText().count
        let result = try BinaryRunner.run(
          arguments, environment: sandbox.binaryEnvironment.merging(extra) { _, new in new },
          currentDirectory: sandbox.home)
        let logged = String(logText().dropFirst(before))
        let refused =
          logged.contains("refusing to send the prompt to \(host)") && logged.contains("narrative.allowRemote")
        #expect(result.status == 0, "\(what): \(result.standardError)")
        // By hand, `narrate` says why nothing happened; the engine is not off.
        let explained = arguments[0] != "narrate" || result.standardError.contains("narrative.log")
        #expect(explained, "\(what): \(result.standardError)")
        #expect(refused, "\(what): narrative.log says \(logged)")
        #expect(counter.connections == 0, "\(what) connected to \(url)")
        if result.status == 0 && refused && explained && counter.connections == 0 { passed += 1 }
      }

      try expectRefused(["narrate", Self.day], "narrate")
      try expectRefused(["rebuild", Self.day], "rebuild")
      #expect(sandbox.journalFile(Self.day)?.contains("Teach the parser about tabs") == true)
      // No narrative.url: the Ollama engine reads OLLAMA_HOST, which is just as remote.
      try sandbox.unset("narrative.url")
      try expectRefused(["narrate", Self.day], environment: ["OLLAMA_HOST": "\(host):\(counter.port)"], "OLLAMA_HOST")
      #expect(!FileManager.default.fileExists(atPath: sandbox.stateHome + "/gitjournal/narrative-backoff"))

      if localAddress != nil {
        // The control: allowed, the same narrator does reach the counter, so its silence above means something.
        try sandbox.configure("narrative.url", url)
        try sandbox.configure("narrative.allowRemote", "true")
        // Once it has connected, the narrator's fate (it may wait out the pause and retry) is not this test's.
        let allowed = try ChildProcess(
          try BinaryRunner.executable(), ["narrate", Self.day], environment: sandbox.binaryEnvironment,
          currentDirectory: sandbox.home)
        let deadline = Date().addingTimeInterval(10)
        while counter.connections == 0 && allowed.isRunning && Date() < deadline { usleep(10_000) }
        allowed.kill()
        #expect(counter.connections >= 1, "the listener saw nothing even when remote servers were allowed")
      }
      ReliabilityTable.record("privacy: remote model server refused", tried: tried, passed: passed, dataLost: 0)
    }

    /// `private` cannot be lost to the config's shape (issue 15, items 2 and 3), with the real hooks and a loopback
    /// server that records every request: a misspelled key or a repository name in another case stops the hook
    /// before any request (and says so in the hook log), and a worktree of a private repository registered as a
    /// second project, by hand or with `repos add`, is private too.
    @Test func privateStaysPrivateWhateverTheConfigSays() async throws {
      try await DedicatedThread.run {
        let world = try NarrativeWorld(ModelBehaviour(.ollama))
        let secret = try world.hooks.makeRepository("code/client-x")
        let installed = try world.hooks.gitjournal("install", in: secret)
        try #require(installed.status == 0, "\(installed.hookTestSummary)")
        let noon = NarrativeHookTests.noon()
        var tried = 0
        var passed = 0

        // Misspelled, or in another case: the hook logs the problem and sends nothing.
        for (key, index, named) in [
          ("repo.client-x.privte", 1, "repo.client-x.privte"), ("repo.Client-x.private", 2, "[repo \"Client-x\"]"),
        ] {
          tried += 1
          try world.configure(key, "true")
          let log = (try? String(contentsOfFile: world.hooks.hookLogPath, encoding: .utf8)) ?? ""
          let run = try world.timedCommit("Initech memo SECRETTOKEN\(index)", in: secret, authorDate: noon)
          await world.finish()
          let logged = ((try? String(contentsOfFile: world.hooks.hookLogPath, encoding: .utf8)) ?? "").dropFirst(
            log.count)
          #expect(logged.contains(named), "\(key): the hook log says \(logged)")
          #expect(run.output.split(separator: "\n").count == 1, "\(key): git commit printed \(run.output)")
          #expect(world.server.requests.isEmpty, "\(key): \(world.server.requests.map(\.path))")
          if logged.contains(named) && world.server.requests.isEmpty { passed += 1 }
          try world.hooks.unset(key)
        }

        // A worktree of the private repository, registered by hand as another project, ahead of the private
        // one in the config: each commit counts once, for the first entry that has it, which is this one.
        let worktree = world.hooks.scratch.path("code/client-x-feature")
        try world.hooks.git(["worktree", "add", "-q", "-b", "feature", worktree], in: secret)
        try world.configure("repo.client-x-feature.path", worktree)
        try world.hooks.git(
          ["config", "-f", world.hooks.configPath, "--remove-section", "repo.client-x"], in: world.home)
        try world.configure("repo.client-x.path", secret)
        try world.configure("repo.client-x.private", "true")
        _ = try world.timedCommit("Public work", authorDate: noon.addingTimeInterval(60))
        _ = try world.timedCommit(
          "Initech pricing SECRETTOKEN3", in: worktree, authorDate: noon.addingTimeInterval(120))
        let day = try world.hooks.describe("HEAD", in: worktree).day
        _ = await world.journal(day) { $0.contains("SECRETTOKEN3") && $0.contains(ModelBehaviour.sentence) }
        await world.finish()
        // And `repos add` of the worktree adds nothing: it is the private repository.
        let added = try world.hooks.gitjournal("repos", "add", worktree, in: world.home)
        #expect(added.standardOutput.contains("already configured"), "\(added.hookTestSummary)")

        tried += 1
        let bodies = world.server.requests.map(\.bodyText)
        #expect(bodies.contains { $0.contains("Public work") }, "nothing was sent: the test sees nothing")
        let leaks = bodies.filter { $0.contains("SECRETTOKEN") || $0.contains("Initech") }
        #expect(leaks.isEmpty, "private subjects were sent: \(leaks)")
        if leaks.isEmpty && bodies.contains(where: { $0.contains("Public work") }) { passed += 1 }
        ReliabilityTable.record(
          "privacy: private despite the config's shape", tried: tried, passed: passed, dataLost: 0)
      }
    }

    /// Subjects of a private repository over three days, with both engines, through `rebuild` and `narrate`: the
    /// loopback server captures every request, and no private subject is in any of them, raw or JSON-escaped.
    @Test func privateSubjectsAreInNoRequest() throws {
      let sandbox = try JournalSandbox()
      let server = try ModelServer(ModelBehaviour(.ollama))
      let site = try sandbox.makeRepository("site")
      let secret = try sandbox.makeRepository("client-x")
      let days = ["2026-03-08", "2026-03-09", "2026-03-10"]
      var secrets: [String] = []
      var publics: [String] = []
      for (index, day) in days.enumerated() {
        let open = "Polish the footer \(index) OPENTOKEN\(index)"
        publics.append(open)
        try site.commit(file: "f\(index).txt", content: "\(index)\n", message: open, date: "\(day)T09:00:00Z")
        for (slot, secretSubject) in [
          "Draft the \"Initech\" merger memo SECRETTOKEN\(index)a",
          "Fix <b>pricing</b> für Ünïcode SECRETTOKEN\(index)b",
        ].enumerated() {
          secrets.append(secretSubject)
          try secret.commit(
            file: "s\(index)-\(slot).txt", content: "\(slot)\n", message: secretSubject, date: "\(day)T1\(slot):00:00Z")
        }
      }
      try sandbox.register(site)
      try sandbox.register(secret)
      try sandbox.configure("repo.client-x.private", "true")
      try sandbox.configure("narrative.engine", "ollama")
      try sandbox.configure("narrative.url", server.baseURL)
      try sandbox.configure("narrative.healthTimeout", "2")
      try sandbox.configure("narrative.timeout", "5")

      func run(_ arguments: [String]) throws {
        let result = try BinaryRunner.run(
          arguments, environment: sandbox.binaryEnvironment, currentDirectory: sandbox.home)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
      }
      try run(["rebuild", "--since", days[0], "--until", days[2]])
      let late = "Late private fix SECRETTOKENlate"
      secrets.append(late)
      try secret.commit(file: "late.txt", content: "late\n", message: late, date: "\(days[1])T18:00:00Z")
      try run(["narrate", days[1]])
      // The other engine, and so another cache key: every day is asked again, in OpenAI's request shape. The
      // sentences shared in the journal folder are keyed by the facts alone (any machine shows them, whatever its
      // model): they go, or the days would keep the sentences they have.
      for machine in try FileManager.default.contentsOfDirectory(atPath: sandbox.journalDirectory + "/.gitjournal") {
        try? FileManager.default.removeItem(atPath: sandbox.journalDirectory + "/.gitjournal/\(machine)/sentences")
      }
      server.behave(ModelBehaviour(.openAI))
      try sandbox.configure("narrative.engine", "openai")
      try run(["rebuild", "--since", days[0], "--until", days[2]])

      let bodies = server.requests.map(\.bodyText)
      // Three days, their two weeks and their month, twice (the week's and the month's prompts list subjects too);
      // `narrate` decorates the facts already written, which have their sentences.
      #expect(server.generationRequestCount == 12, "\(server.requests.map(\.path))")
      #expect(bodies.filter { $0.contains("what did I work on this week?") }.count == 4)
      var leaks = 0
      for subject in secrets {
        let escaped = try #require(String(data: JSONEncoder().encode(subject), encoding: .utf8)).dropFirst().dropLast()
        let token = String(subject.split(separator: " ").last!)
        let leaked = bodies.filter { $0.contains(subject) || $0.contains(escaped) || $0.contains(token) }
        leaks += leaked.count
        #expect(leaked.isEmpty, "'\(subject)' was sent: \(leaked.first ?? "")")
      }
      for (index, subject) in publics.enumerated() {
        #expect(
          bodies.contains { $0.contains("OPENTOKEN\(index)") }, "'\(subject)' was never sent: the test sees nothing")
      }
      for day in days {
        let journal = sandbox.journalFile(day) ?? ""
        #expect(journal.contains(ModelBehaviour.sentence), "\(day) has no sentence")
        #expect(journal.contains("SECRETTOKEN"), "\(day) lost its private subjects")
      }
      ReliabilityTable.record(
        "privacy: private subjects in requests", tried: server.generationRequestCount,
        passed: leaks == 0 ? server.generationRequestCount : 0, dataLost: 0)
    }
  }
}
