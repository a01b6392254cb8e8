import Foundation

@testable import Narrative

/// A model server as a test scripts it: which API it speaks (answering the way Ollama, llama-server or any
/// OpenAI-compatible server does, per ../shared/notes/local-llm-protocols.md), what the model writes, and how
/// the health check or the generation fails.
struct ModelBehaviour: Sendable {
  enum API: Sendable {
    /// Ollama's native API: `/`, `/api/version`, `/api/tags`, `/api/generate` (and its `/v1`).
    case ollama
    /// An OpenAI-compatible server: `/v1/models`, `/v1/chat/completions`, `/health`.
    case openAI
    /// llama.cpp's llama-server: OpenAI-compatible, answers `/api/tags` too, but has no `/api/generate`.
    case llamaServer
  }

  /// A sentence the guard accepts for any facts: one sentence, no number, and only words any day may use
  /// (Grounding.genericWords).
  static let sentence = "I spent the day on small fixes and tidied up the code."

  var api: API
  /// What the model writes, before the guard.
  var sentence = ModelBehaviour.sentence
  var healthFault: ServerFault?
  var generationFault: ServerFault?
  /// Seconds before a correct health answer.
  var healthDelay = 0.0
  /// Seconds before a correct generation answer.
  var generationDelay = 0.0
  /// How long the `late` fault waits before answering correctly.
  var lateBy = 1.6
  /// Correct answers use chunked transfer encoding.
  var chunked = false

  init(
    _ api: API, sentence: String = ModelBehaviour.sentence, healthFault: ServerFault? = nil,
    generationFault: ServerFault? = nil
  ) {
    self.api = api
    self.sentence = sentence
    self.healthFault = healthFault
    self.generationFault = generationFault
  }

  /// The behaviour of the server a narrator with `engine` talks to.
  init(engine: NarrativeSettings.Engine, sentence: String = ModelBehaviour.sentence) {
    self.init(engine == .openai ? .openAI : .ollama, sentence: sentence)
  }

  var script: ModelServer.Script {
    let behaviour = self
    return { request in behaviour.action(for: request) }
  }

  func action(for request: ModelServer.Request) -> ModelServer.Action {
    let path = request.path.split(separator: "?").first.map(String.init) ?? request.path
    let model = (try? request.decode(ModelField.self).model) ?? "gemma3:4b"
    switch (api, request.method, path) {
    case (.ollama, "GET", "/"), (.ollama, "HEAD", "/"):
      return .respond(.text("Ollama is running"))
    case (.ollama, "GET", "/api/version"):
      return .respond(.json(#"{"version":"0.12.6"}"#))
    case (.ollama, "GET", "/api/tags"), (.llamaServer, "GET", "/api/tags"):
      return health(Self.tags(llamaServer: api == .llamaServer))
    case (.ollama, "POST", "/api/generate"):
      return generation(Self.generateAnswer(sentence, model: model))
    case (.openAI, "GET", "/v1/models"), (.llamaServer, "GET", "/v1/models"), (.ollama, "GET", "/v1/models"):
      return health(Self.models)
    case (.openAI, "GET", "/health"), (.llamaServer, "GET", "/health"):
      return health(.json(#"{"status":"ok"}"#))
    case (_, "POST", "/v1/chat/completions"):
      return generation(Self.chatAnswer(sentence, model: model))
    case (.ollama, _, _):
      // Ollama's router (gin) answers unknown routes in plain text.
      return .respond(.text("404 page not found", status: 404))
    default:
      return .respond(Self.fileNotFound)
    }
  }

  private func health(_ correct: ModelServer.Reply) -> ModelServer.Action {
    answer(correct, fault: healthFault, delay: healthDelay)
  }

  private func generation(_ correct: ModelServer.Reply) -> ModelServer.Action {
    answer(correct, fault: generationFault, delay: generationDelay)
  }

  private func answer(_ correct: ModelServer.Reply, fault: ServerFault?, delay: Double) -> ModelServer.Action {
    let reply = chunked ? correct.inChunks : correct
    let action = fault.map { $0.action(correct: reply, api: api, lateBy: lateBy) } ?? .respond(reply)
    return delay > 0 ? .delay(delay, then: action) : action
  }

  private struct ModelField: Decodable {
    let model: String
  }

  static func tags(llamaServer: Bool) -> ModelServer.Reply {
    // llama-server serves /api/tags from its /v1/models handler: size, digest and modified_at are empty strings.
    let details: [String: Any] = [
      "parent_model": "", "format": "gguf", "family": "gemma3", "families": ["gemma3"], "parameter_size": "4.3B",
      "quantization_level": "Q4_K_M",
    ]
    let model: [String: Any] = [
      "name": "gemma3:4b", "model": "gemma3:4b",
      "modified_at": llamaServer ? "" : "2025-10-01T10:00:00.123456789+02:00",
      "size": llamaServer ? "" as Any : 3_338_801_804 as Any,
      "digest": llamaServer ? "" : "a2af6cc3eb7fa8be8504abaf9b04e88f17a119ec3f04a3addf55f92841195f5a",
      "details": details,
    ]
    return .json(object: ["models": [model]])
  }

  static var models: ModelServer.Reply {
    .json(object: [
      "object": "list",
      "data": [["id": "gemma3:4b", "object": "model", "created": 1_762_000_000, "owned_by": "llamacpp"]],
    ])
  }

  static func generateAnswer(_ sentence: String, model: String) -> ModelServer.Reply {
    .json(object: [
      "model": model, "created_at": "2026-03-10T12:00:00.000000000Z", "response": sentence, "done": true,
      "done_reason": "stop", "context": [2, 105, 2364], "total_duration": 812_345_678, "load_duration": 12_345_678,
      "prompt_eval_count": 120, "prompt_eval_duration": 100_000_000, "eval_count": 18, "eval_duration": 700_000_000,
    ])
  }

  static func chatAnswer(_ sentence: String, model: String) -> ModelServer.Reply {
    .json(object: [
      "id": "chatcmpl-1", "object": "chat.completion", "created": 1_762_000_000, "model": model,
      "choices": [
        ["index": 0, "message": ["role": "assistant", "content": sentence], "finish_reason": "stop"] as [String: Any]
      ],
      "usage": ["prompt_tokens": 120, "completion_tokens": 18, "total_tokens": 138],
    ])
  }

  /// llama-server's answer to a route it does not have.
  static var fileNotFound: ModelServer.Reply {
    .json(#"{"error":{"code":404,"message":"File Not Found","type":"not_found_error"}}"#, status: 404)
  }
}

extension ModelServer {
  convenience init(_ behaviour: ModelBehaviour, lifetime: Double = 300) throws {
    try self.init(lifetime: lifetime, script: behaviour.script)
  }

  /// Switches to another behaviour for the requests that arrive from now on.
  func behave(_ behaviour: ModelBehaviour) { setScript(behaviour.script) }

  static let healthPaths: Set<String> = ["/api/tags", "/v1/models", "/health"]
  static let generationPaths: Set<String> = ["/api/generate", "/v1/chat/completions"]

  /// Health checks received so far, whatever the API.
  var healthRequestCount: Int { requests.filter { Self.healthPaths.contains($0.path) }.count }

  /// Generation requests received so far, whatever the API.
  var generationRequestCount: Int { requests.filter { Self.generationPaths.contains($0.path) }.count }
}
