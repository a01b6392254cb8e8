import Facts
import GitReader
import Support

/// Ollama's native API: health check `GET /api/tags`, generation `POST /api/generate`.
struct OllamaEngine: NarrativeEngine {
  let endpoint: JSONEndpoint
  let settings: NarrativeSettings

  func health() async -> ServerHealth {
    await endpoint.health("/api/tags", timeout: settings.healthTimeout)
  }

  func modelNames() async -> [String]? {
    await endpoint.fetch("/api/tags", timeout: settings.healthTimeout, as: EngineMessages.OllamaTags.self)?
      .models.map(\.name)
  }

  func write(system: String, prompt: String) async throws -> String {
    let body = EngineMessages.OllamaGenerate(
      model: settings.model, system: system, prompt: prompt,
      options: .init(temperature: settings.temperature, numPredict: 120))
    do {
      return try await endpoint.post(
        "/api/generate", body: body, timeout: settings.timeout, answer: EngineMessages.OllamaAnswer.self,
        expected: "no 'response' text in Ollama's answer"
      ).response
    } catch NarrativeError.server(404, let message) where !message.lowercased().contains(text: "model") {
      // llama-server and other OpenAI-compatible servers answer /api/tags but have no /api/generate.
      throw NarrativeError.server(
        status: 404,
        message: "\(message): this server has no /api/generate; if it is OpenAI-compatible (llama-server, LM Studio), "
          + "set narrative.engine = openai")
    }
  }
}
