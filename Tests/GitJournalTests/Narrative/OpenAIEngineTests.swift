import Foundation
import Testing

@testable import Narrative

/// The openai engine against a server that answers as llama-server, LM Studio or vLLM do.
@Suite struct OpenAIEngineTests {
  /// `POST /v1/chat/completions` as an OpenAI-compatible server reads it.
  struct ChatRequest: Decodable {
    struct Message: Decodable, Equatable {
      let role: String
      let content: String
    }

    let model: String
    let messages: [Message]
    let temperature: Double
    let stream: Bool
  }

  func engine(_ url: String, configure: (inout NarrativeSettings) -> Void = { _ in }) throws -> OpenAIEngine {
    var settings = NarrativeSettings()
    settings.engine = .openai
    settings.url = url
    settings.healthTimeout = 0.5
    settings.timeout = 2
    configure(&settings)
    return OpenAIEngine(endpoint: try JSONEndpoint(baseURL: url, allowRemote: false), settings: settings)
  }

  @Test func generationSendsSystemAndUserMessages() async throws {
    let server = try ModelServer(ModelBehaviour(.openAI))
    let engine = try engine(server.baseURL + "/") { settings in
      settings.model = "llama-3.2-3b-instruct"
      settings.temperature = 0.4
    }
    #expect(try await engine.write(system: "Be brief.", prompt: "Day: Tuesday") == ModelBehaviour.sentence)

    #expect(server.requests.count == 1)
    let request = try #require(server.requests(to: "/v1/chat/completions").first)
    #expect(request.method == "POST")
    let body = try request.decode(ChatRequest.self)
    #expect(body.model == "llama-3.2-3b-instruct")
    #expect(
      body.messages == [
        ChatRequest.Message(role: "system", content: "Be brief."),
        ChatRequest.Message(role: "user", content: "Day: Tuesday"),
      ])
    #expect(body.temperature == 0.4)
    #expect(body.stream == false)
  }

  @Test func openAIErrorObjectsGiveTheirMessage() async throws {
    let server = try ModelServer(ModelBehaviour(.openAI, generationFault: .modelNotFound))
    await #expect(throws: NarrativeError.server(status: 404, message: "model 'gemma3:4b' not found")) {
      try await engine(server.baseURL).write(system: "s", prompt: "p")
    }
  }

  @Test func answerWithoutChoicesIsInvalid() async throws {
    let server = try ModelServer { _ in .respond(.json(#"{"object":"chat.completion","choices":[]}"#)) }
    await #expect {
      try await engine(server.baseURL).write(system: "s", prompt: "p")
    } throws: { error in
      guard case .invalidAnswer = error as? NarrativeError else { return false }
      return true
    }
  }

  @Test func chunkedAnswerIsRead() async throws {
    var behaviour = ModelBehaviour(.openAI)
    behaviour.chunked = true
    let server = try ModelServer(behaviour)
    #expect(try await engine(server.baseURL).write(system: "s", prompt: "p") == ModelBehaviour.sentence)
  }

  @Test func drippingGenerationIsCutOffAtTheTimeout() async throws {
    let server = try ModelServer(ModelBehaviour(.openAI, generationFault: .drip))
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
}
