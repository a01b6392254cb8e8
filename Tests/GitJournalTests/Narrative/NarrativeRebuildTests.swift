import Foundation
import Testing

/// `rebuild`, `narrate` and `show --json` with the built binary against a loopback model server: the cache
/// keeps unchanged days from the model, `--no-narrative` asks nothing, a failure pauses every later process. The week
/// and month pages are off: these count the requests for the days' sentences (PeriodSentenceTests has theirs).
@Suite struct NarrativeRebuildTests {
  let sandbox: JournalSandbox
  let server: ModelServer

  /// One commit a day on 8, 9 and 10 March 2026, each with a word the prompt of that day alone contains.
  static let days = [("2026-03-08", "alpha"), ("2026-03-09", "bravo"), ("2026-03-10", "charlie")]

  /// A sentence per day, so that a file holding another day's sentence is caught.
  static func sentence(for word: String) -> String { "I spent the day on the \(word) module." }

  /// An Ollama that writes the sentence of whichever day the prompt is about.
  static func dayAwareOllama(failing fault: ServerFault? = nil) -> ModelServer.Script {
    { request in
      var behaviour = ModelBehaviour(.ollama, healthFault: fault)
      if let word = days.map(\.1).first(where: { request.bodyText.contains("Refactor the \($0) module") }) {
        behaviour.sentence = sentence(for: word)
      }
      return behaviour.action(for: request)
    }
  }

  init() async throws {
    (sandbox, server) = try await DedicatedThread.run {
      let sandbox = try JournalSandbox()
      let server = try ModelServer(script: Self.dayAwareOllama())
      let repository = try sandbox.makeRepository("app")
      for (day, word) in Self.days {
        try repository.commit(
          file: "\(word).txt", content: "\(word)\n", message: "Refactor the \(word) module", date: "\(day)T10:00:00Z")
      }
      try sandbox.register(repository)
      try sandbox.configure("narrative.engine", "ollama")
      try sandbox.configure("narrative.url", server.baseURL)
      try sandbox.configure("narrative.healthTimeout", "1")
      try sandbox.configure("narrative.timeout", "2")
      try sandbox.configure("narrative.retryDelay", "60")
      try sandbox.configure("journal.weekly", "false")
      try sandbox.configure("journal.monthly", "false")
      return (sandbox, server)
    }
  }

  func gitjournal(_ arguments: [String]) throws -> CommandResult {
    let result = try BinaryRunner.run(arguments, environment: sandbox.binaryEnvironment, currentDirectory: sandbox.home)
    return CommandResult(
      status: result.status, standardOutput: result.standardOutput, standardError: result.standardError)
  }

  func rebuild(_ extra: String...) throws -> CommandResult {
    try gitjournal(["rebuild", "--since", "2026-03-08", "--until", "2026-03-10"] + extra)
  }

  /// The first line of the day's managed block: the sentence when there is one, else the factual line.
  func firstLine(_ day: String) -> String? {
    sandbox.journalFile(day).flatMap { NarrativeWorld.blockLines($0).first }
  }

  /// `show <day> --json` from the binary, as a JSON object.
  func shownNarrative(_ day: String) throws -> Any? {
    let result = try gitjournal(["show", day, "--json"])
    guard result.status == 0 else { throw ScratchError("show --json failed: \(result)") }
    let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    return try #require(object)["narrative"]
  }

  @Test func secondRebuildOfTheSameRangeAsksTheModelNothing() async throws {
    try await DedicatedThread.run {
      let first = try rebuild()
      #expect(first.status == 0, "\(first)")
      #expect(server.healthRequestCount == 1)
      #expect(server.generationRequestCount == 3)
      // Newest day first.
      let prompts = server.requests(to: "/api/generate").map(\.bodyText)
      #expect(prompts.map { text in Self.days.map(\.1).first { text.contains($0) } } == ["charlie", "bravo", "alpha"])
      var files: [String: String] = [:]
      for (day, word) in Self.days {
        #expect(firstLine(day) == Self.sentence(for: word))
        files[day] = sandbox.journalFile(day)
      }

      let second = try rebuild()
      #expect(second.status == 0, "\(second)")
      #expect(server.requests.count == 4, "the second rebuild sent \(server.requests.dropFirst(4).map(\.path))")
      for (day, _) in Self.days { #expect(sandbox.journalFile(day) == files[day]) }
    }
  }

  @Test func rebuildWithoutNarrativeSendsNothing() async throws {
    try await DedicatedThread.run {
      let result = try rebuild("--no-narrative")
      #expect(result.status == 0, "\(result)")
      #expect(server.requests.isEmpty)
      #expect(server.connectionCount == 0)
      for (day, _) in Self.days { #expect(firstLine(day)?.hasPrefix("1 commit in 1 project") == true) }
      #expect(try shownNarrative("2026-03-10") is NSNull)

      let narrated = try rebuild()
      #expect(narrated.status == 0, "\(narrated)")
      #expect(firstLine("2026-03-10") == Self.sentence(for: "charlie"))
      #expect(try shownNarrative("2026-03-10") as? String == Self.sentence(for: "charlie"))
      #expect(try shownNarrative("2026-03-11") is NSNull)
    }
  }

  /// A failed health check during `rebuild` pauses the model for every later process: the next `rebuild`
  /// and `narrate` send nothing and say why.
  @Test func failureInOneProcessSilencesTheNext() async throws {
    try await DedicatedThread.run {
      server.setScript(Self.dayAwareOllama(failing: .internalError))
      let failed = try rebuild()
      #expect(failed.status == 0, "\(failed)")
      #expect(server.healthRequestCount == 1)
      #expect(server.generationRequestCount == 0)
      #expect(failed.standardError.contains("narrative.log"), "\(failed)")
      for (day, _) in Self.days { #expect(firstLine(day)?.hasPrefix("1 commit in 1 project") == true) }

      server.setScript(Self.dayAwareOllama())
      let again = try rebuild()
      #expect(again.status == 0, "\(again)")
      // The next process names the failure that began the pause, and how long the pause still lasts.
      #expect(again.standardError.contains("No sentences this time: the model is paused for "), "\(again)")
      let reason = "s more after this failure: the model server did not answer its health check (GET /api/tags)"
      #expect(again.standardError.contains(reason), "\(again)")
      let narrate = try gitjournal(["narrate", "2026-03-10"])
      #expect(narrate.status == 0, "\(narrate)")
      #expect(server.requests.count == 1, "sent during the pause: \(server.requests.dropFirst().map(\.path))")
      #expect(firstLine("2026-03-10")?.hasPrefix("1 commit in 1 project") == true)
      #expect(try shownNarrative("2026-03-10") is NSNull)
    }
  }

  /// `narrate` fills a day's missing sentence in the file and exits.
  @Test func narrateAddsTheSentenceToTheFile() async throws {
    try await DedicatedThread.run {
      _ = try rebuild("--no-narrative")
      let result = try gitjournal(["narrate", "2026-03-09"])
      #expect(result.status == 0, "\(result)")
      #expect(firstLine("2026-03-09") == Self.sentence(for: "bravo"))
      #expect(firstLine("2026-03-10")?.hasPrefix("1 commit in 1 project") == true)
      #expect(server.generationRequestCount == 1)
    }
  }

  /// A sentence the guard rejects never reaches the file (each day is asked twice); `narrative.log` says why, and
  /// the next rebuild does not ask about the same facts again.
  @Test func rejectedSentenceLeavesTheFactsAlone() async throws {
    try await DedicatedThread.run {
      server.setScript(ModelBehaviour(.ollama, sentence: "I pushed 9731 commits before lunch.").script)
      let result = try rebuild()
      #expect(result.status == 0, "\(result)")
      #expect(server.generationRequestCount == 6)
      let seen = server.requests.count
      let again = try rebuild()
      #expect(again.status == 0, "\(again)")
      #expect(server.requests.count == seen, "asked again: \(server.requests.suffix(3).map(\.path))")
      for (day, _) in Self.days {
        #expect(firstLine(day)?.hasPrefix("1 commit in 1 project") == true)
        #expect(sandbox.journalFile(day)?.contains("9731") == false)
      }
      let log = sandbox.scratch.read("home/.local/state/gitjournal/narrative.log") ?? ""
      #expect(log.contains("rejected") && log.contains("9731"), "narrative.log: \(log)")
      #expect(try shownNarrative("2026-03-10") is NSNull)
    }
  }

  /// `narrate` says in one line why a day got no sentence: here the guard rejected both answers; asked again about
  /// the same facts, it says that they were rejected before, and asks nothing.
  /// A server's error text reaches the terminal and the log as text: no escape sequence in it retitles or clears
  /// the user's terminal, and it stays one line.
  @Test func aHostileServersErrorTextIsPrintedAsText() async throws {
    try await DedicatedThread.run {
      _ = try rebuild("--no-narrative")
      let healthy = ModelBehaviour(.ollama).script
      server.setScript { request in
        request.path == "/api/generate"
          ? .respond(.json("\u{1B}]0;owned\u{7}\u{1B}[2Jcleared\r\nyour \u{202E}screen", status: 500))
          : healthy(request)
      }
      let result = try gitjournal(["narrate", "2026-03-10"])
      #expect(result.status == 0, "\(result)")
      #expect(result.standardError.split(separator: "\n").count == 1, "\(result)")
      #expect(!result.standardError.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(result)")
      #expect(
        result.standardError.contains("\u{FFFD}]0;owned\u{FFFD}\u{FFFD}[2Jcleared  your \u{FFFD}screen"), "\(result)")
      let log = try String(contentsOfFile: sandbox.stateHome + "/gitjournal/narrative.log", encoding: .utf8)
      #expect(!log.contains("\u{1B}") && !log.contains("\u{202E}"), "\(log)")
    }
  }

  @Test func narrateSaysWhyTheSentenceWasRejected() async throws {
    try await DedicatedThread.run {
      _ = try rebuild("--no-narrative")
      server.setScript(ModelBehaviour(.ollama, sentence: "I pushed 9731 commits before lunch.").script)
      let result = try gitjournal(["narrate", "2026-03-10"])
      #expect(result.status == 0, "\(result)")
      let lines = result.standardError.split(separator: "\n")
      #expect(lines.count == 1, "\(result)")
      #expect(
        lines.first?.hasPrefix("2026-03-10: no sentence: the model's answers were rejected: ") == true, "\(result)")
      let seen = server.requests.count
      let again = try gitjournal(["narrate", "2026-03-10"])
      #expect(
        again.standardError.hasPrefix("2026-03-10: no sentence: no request, the answers for these facts"), "\(again)")
      #expect(server.requests.count == seen)
    }
  }

  /// A sentence that says what the facts do not (issue 19: a purpose, a product) never reaches the file, though it
  /// states no number; the grounded one of the day after does.
  @Test func inventedSentenceLeavesTheFactsAlone() async throws {
    try await DedicatedThread.run {
      server.setScript { request in
        var behaviour = ModelBehaviour(.ollama)
        if let word = Self.days.map(\.1).first(where: { request.bodyText.contains("Refactor the \($0) module") }) {
          behaviour.sentence =
            word == "charlie"
            ? "I refactored the charlie module."
            : "I refactored the \(word) module of a journaling platform that lets users share their writing."
        }
        return behaviour.action(for: request)
      }
      let result = try rebuild()
      #expect(result.status == 0, "\(result)")
      #expect(firstLine("2026-03-10") == "I refactored the charlie module.")
      for day in ["2026-03-08", "2026-03-09"] {
        #expect(firstLine(day)?.hasPrefix("1 commit in 1 project") == true)
        #expect(sandbox.journalFile(day)?.contains("platform") == false)
      }
      let log = sandbox.scratch.read("home/.local/state/gitjournal/narrative.log") ?? ""
      #expect(log.contains("says what the facts do not ('journaling', 'platform', 'lets'"), "narrative.log: \(log)")
    }
  }

  /// A sentence with a link or an image never reaches the file: a Markdown viewer would fetch its URL (issue 15).
  @Test func sentenceWithAnImageLeavesTheFactsAlone() async throws {
    try await DedicatedThread.run {
      server.setScript { request in
        var behaviour = ModelBehaviour(.ollama)
        if let word = Self.days.map(\.1).first(where: { request.bodyText.contains("Refactor the \($0) module") }) {
          behaviour.sentence = "I refactored the \(word) module ![x](http://127.0.0.1:9/\(word).png?data=module)."
        }
        return behaviour.action(for: request)
      }
      let result = try rebuild()
      #expect(result.status == 0, "\(result)")
      for (day, _) in Self.days {
        #expect(firstLine(day)?.hasPrefix("1 commit in 1 project") == true)
        #expect(sandbox.journalFile(day)?.contains("127.0.0.1") == false)
      }
      let log = sandbox.scratch.read("home/.local/state/gitjournal/narrative.log") ?? ""
      #expect(log.contains("contains a URL"), "narrative.log: \(log)")
    }
  }

  /// `repo.<name>.private = true`: the rebuild's prompts carry that project's counts, never its subjects.
  @Test func privateRepositoryKeepsItsSubjects() async throws {
    try await DedicatedThread.run {
      let secret = try sandbox.makeRepository("client-x")
      try secret.commit(
        file: "memo.txt", content: "memo\n", message: "Draft the Initech acquisition memo", date: "2026-03-10T11:00:00Z"
      )
      try sandbox.register(secret)
      try sandbox.configure("repo.client-x.private", "true")
      let result = try rebuild()
      #expect(result.status == 0, "\(result)")
      let bodies = server.requests(to: "/api/generate").map(\.bodyText)
      #expect(bodies.count == 3)
      #expect(bodies.contains { $0.contains("client-x") && $0.contains("Refactor the charlie module") })
      #expect(!bodies.contains { $0.contains("Initech") || $0.contains("acquisition") })
      #expect(sandbox.journalFile("2026-03-10")?.contains("Draft the Initech acquisition memo") == true)
    }
  }
}
