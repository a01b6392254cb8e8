import GitReader
import Support

/// The OpenAI-compatible chat API of llama.cpp's llama-server, LM Studio, vLLM, llamafile and Ollama's /v1:
/// health check `GET /v1/models`, generation `POST /v1/chat/completions`.
struct OpenAIEngine: NarrativeEngine {
  let endpoint: JSONEndpoint
  let settings: NarrativeSettings

  func health() async -> ServerHealth {
    await endpoint.health("/v1/models", timeout: settings.healthTimeout)
  }

  func modelNames() async -> [String]? {
    await endpoint.fetch("/v1/models", timeout: settings.healthTimeout, as: EngineMessages.ModelList.self)?
      .data.map(\.id)
  }

  func write(system: String, prompt: String) async throws -> String {
    let body = EngineMessages.ChatRequest(
      model: settings.model, messages: [.init(role: "system", content: system), .init(role: "user", content: prompt)],
      temperature: settings.temperature, maxTokens: 120)
    let answer = try await endpoint.post(
      "/v1/chat/completions", body: body, timeout: settings.timeout, answer: EngineMessages.ChatAnswer.self,
      expected: "no choices[0].message.content in the answer")
    guard let text = answer.choices.first?.message.content else {
      throw NarrativeError.invalidAnswer("no choices[0].message.content in the answer: the choices are empty")
    }
    return text
  }
}
