import Foundation
import Testing

@testable import Narrative

/// The ollama engine against a server that answers as Ollama (or as llama-server, which it is sometimes
/// pointed at by mistake): what goes on the wire and what comes back.
@Suite struct OllamaEngineTests {
  /// `POST /api/generate` as Ollama reads it (api/types.go): the fields the issue names, typed strictly.
  struct GenerateRequest: Decodable {
    struct Options: Decodable {
      let temperature: Double
    }

    let model: String
    let system: String
    let prompt: String
    let stream: Bool
    let think: Bool
    let options: Options
    let keepAlive: KeepAlive

    enum CodingKeys: String, CodingKey {
      case model, system, prompt, stream, think, options
      case keepAlive = "keep_alive"
    }
  }

  /// Ollama takes `keep_alive` as a duration string ("10m") or a number of seconds.
  enum KeepAlive: Decodable, Equatable {
    case text(String)
    case seconds(Double)

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let text = try? container.decode(String.self) {
        self = .text(text)
      } else {
        self = .seconds(try container.decode(Double.self))
      }
    }
  }

  func engine(_ url: String, configure: (inout NarrativeSettings) -> Void = { _ in }) throws -> OllamaEngine {
    var settings = NarrativeSettings()
    settings.url = url
    settings.healthTimeout = 0.5
    settings.timeout = 2
    configure(&settings)
    return OllamaEngine(endpoint: try JSONEndpoint(baseURL: url, allowRemote: false), settings: settings)
  }

  @Test func generationSendsTheDocumentedRequest() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama))
    let engine = try engine(server.baseURL) { settings in
      settings.model = "qwen3:1.7b"
      settings.temperature = 0.7
    }
    let text = try await engine.write(system: "Be brief.", prompt: "Day: Tuesday, 10 March 2026")
    #expect(text == ModelBehaviour.sentence)

    #expect(server.requests.count == 1)
    let request = try #require(server.requests(to: "/api/generate").first)
    #expect(request.method == "POST")
    #expect(request.headers["content-type"] == "application/json")
    let body = try request.decode(GenerateRequest.self)
    #expect(body.model == "qwen3:1.7b")
    #expect(body.system == "Be brief.")
    #expect(body.prompt == "Day: Tuesday, 10 March 2026")
    // Ollama streams unless told not to; `think: false` keeps reasoning models from thinking at all.
    #expect(body.stream == false)
    #expect(body.think == false)
    #expect(body.options.temperature == 0.7)
    switch body.keepAlive {
    case .text(let duration): #expect(!duration.isEmpty && !duration.hasPrefix("0"), "keep_alive \(duration)")
    case .seconds(let seconds): #expect(seconds != 0, "keep_alive 0 unloads the model after every sentence")
    }
  }

  @Test func temperatureDefaultsToTwoTenths() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama))
    _ = try await engine(server.baseURL).write(system: "s", prompt: "p")
    let body = try #require(server.requests.first).decode(GenerateRequest.self)
    #expect(body.options.temperature == 0.2)
    #expect(body.model == "gemma3:4b")
  }

  @Test func unreachableServerIsNotAvailable() async throws {
    let engine = try engine(try ModelServer.refusingURL())
    #expect(await engine.isAvailable() == false)
  }

  @Test func missingModelIsReportedWithOllamasMessage() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama, generationFault: .modelNotFound))
    await #expect(throws: NarrativeError.server(status: 404, message: "model 'gemma3:4b' not found")) {
      try await engine(server.baseURL).write(system: "s", prompt: "p")
    }
  }

  /// llama-server answers /api/tags, so the health check passes, but it has no /api/generate.
  @Test func llamaServerBehindTheOllamaEngineIsExplained() async throws {
    let server = try ModelServer(ModelBehaviour(.llamaServer))
    let engine = try engine(server.baseURL)
    #expect(await engine.isAvailable())
    await #expect {
      try await engine.write(system: "s", prompt: "p")
    } throws: { error in
      guard case .server(404, let message) = error as? NarrativeError else { return false }
      return message.contains("narrative.engine = openai")
    }
    #expect(server.requests.map(\.path) == ["/api/tags", "/api/generate"])
  }

  @Test(arguments: [ServerFault.internalError, .busy])
  func serverErrorsCarryTheStatusAndMessage(fault: ServerFault) async throws {
    let server = try ModelServer(ModelBehaviour(.ollama, generationFault: fault))
    await #expect {
      try await engine(server.baseURL).write(system: "s", prompt: "p")
    } throws: { error in
      guard case .server(let status, let message) = error as? NarrativeError else { return false }
      return status == (fault == .busy ? 503 : 500) && (message.contains("busy") || message.contains("terminated"))
    }
  }

  /// A reverse proxy's error page is not JSON: its text is the message.
  @Test func proxyErrorPageIsReportedWithItsText() async throws {
    let server = try ModelServer { _ in
      .respond(.text("<html><body><h1>502 Bad Gateway</h1></body></html>", status: 502, type: "text/html"))
    }
    await #expect(
      throws: NarrativeError.server(status: 502, message: "<html><body><h1>502 Bad Gateway</h1></body></html>")
    ) {
      try await engine(server.baseURL).write(system: "s", prompt: "p")
    }
  }

  @Test(arguments: [ServerFault.invalidJSON, .htmlPage, .emptyBody])
  func unreadableAnswersAreInvalid(fault: ServerFault) async throws {
    let server = try ModelServer(ModelBehaviour(.ollama, generationFault: fault))
    await #expect {
      try await engine(server.baseURL).write(system: "s", prompt: "p")
    } throws: { error in
      guard case .invalidAnswer = error as? NarrativeError else { return false }
      return true
    }
  }

  @Test func answerWithoutResponseTextIsInvalid() async throws {
    let server = try ModelServer { _ in .respond(.json(#"{"model":"gemma3:4b","done":true}"#)) }
    await #expect(throws: NarrativeError.invalidAnswer("no 'response' text in Ollama's answer")) {
      try await engine(server.baseURL).write(system: "s", prompt: "p")
    }
  }

  /// Ollama before 0.9 puts reasoning inline; the engine returns it as is and the guard strips it.
  @Test func thinkingTextComesBackAsWritten() async throws {
    let raw = "<think>The user wants one sentence.</think>\nAda fixed the parser."
    let server = try ModelServer(ModelBehaviour(.ollama, sentence: raw))
    #expect(try await engine(server.baseURL).write(system: "s", prompt: "p") == raw)
  }

  @Test func generationIsBoundedByItsOwnTimeoutNotTheHealthOne() async throws {
    var behaviour = ModelBehaviour(.ollama)
    behaviour.generationDelay = 0.8
    let server = try ModelServer(behaviour)
    // Slower than the health timeout, well within the generation timeout.
    let engine = try engine(server.baseURL) {
      $0.healthTimeout = 0.3
      $0.timeout = 3
    }
    #expect(try await engine.write(system: "s", prompt: "p") == ModelBehaviour.sentence)
  }

  @Test func drippingGenerationIsCutOffAtTheTimeout() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama, generationFault: .drip))
    let engine = try engine(server.baseURL) { $0.timeout = 1 }
    // A byte every 0.2 s: only a total deadline ends it before the answer is whole.
    await DedicatedThread.run {
      await #expect(throws: NarrativeError.unavailable(HTTPClient.Failure.timedOut(seconds: 1).description)) {
        try await engine.write(system: "s", prompt: "p")
      }
    }
    #expect(server.generationRequestCount == 1)
    #expect(await server.waitUntil { $0.connectionsClosedByClient == 1 })
  }

  /// An `OLLAMA_HOST` with a path (a reverse proxy) keeps it in front of the API routes.
  @Test func baseURLPathPrefixesTheRoutes() async throws {
    let server = try ModelServer { request in
      switch request.path {
      case "/ollama/api/tags": return .respond(ModelBehaviour.tags(llamaServer: false))
      case "/ollama/api/generate": return .respond(ModelBehaviour.generateAnswer("Ada rested.", model: "m"))
      default: return .respond(.text("404 page not found", status: 404))
      }
    }
    let engine = try engine(OllamaHost.baseURL(from: "127.0.0.1:\(server.port)/ollama"))
    #expect(await engine.isAvailable())
    #expect(try await engine.write(system: "s", prompt: "p") == "Ada rested.")
    #expect(server.requests.map(\.path) == ["/ollama/api/tags", "/ollama/api/generate"])
  }

  @Test func cancellingAGenerationClosesItsConnection() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama, generationFault: .silent))
    let engine = try engine(server.baseURL) { $0.timeout = 30 }
    let probe = await DedicatedThread.run {
      await CancellationProbe.cancel { () -> Bool in
        (try? await engine.write(system: "s", prompt: "p")) == nil
      } once: {
        await server.waitUntil { $0.generationRequestCount == 1 }
      }
    }
    let (failed, _, _) = try #require(probe, "the generation never reached the server")
    #expect(failed)
    // The deadline is 30 s away: the server sees the connection closed only because the cancellation closed it.
    #expect(await server.waitUntil(timeout: 5) { $0.connectionsClosedByClient == 1 })
  }
}
