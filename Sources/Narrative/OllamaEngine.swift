import Facts
import Foundation
import GitReader
import Support

/// Ollama's native API: health check `GET /api/tags`, generation `POST /api/generate`.
struct OllamaEngine: NarrativeEngine {
  let endpoint: JSONEndpoint
  let settings: NarrativeSettings

  func health() async -> ServerHealth {
    await endpoint.health("/api/tags", timeout: settings.healthTimeout)
  }

  func write(system: String, prompt: String) async throws -> String {
    let body: [String: Any] = [
      "model": settings.model, "system": system, "prompt": prompt, "stream": false, "think": false,
      // Keeps the model loaded a while after the last sentence, as Ollama's default does.
      "keep_alive": "10m",
      "options": ["temperature": settings.temperature, "num_predict": 120],
    ]
    let answer: [String: Any]
    do {
      answer = try await endpoint.post("/api/generate", body: body, timeout: settings.timeout)
    } catch NarrativeError.server(404, let message) where !message.lowercased().contains("model") {
      // llama-server and other OpenAI-compatible servers answer /api/tags but have no /api/generate.
      throw NarrativeError.server(
        status: 404,
        message: "\(message): this server has no /api/generate; if it is OpenAI-compatible (llama-server, LM Studio), "
          + "set narrative.engine = openai")
    }
    guard let text = answer["response"] as? String else {
      throw NarrativeError.invalidAnswer("no 'response' text in Ollama's answer")
    }
    return text
  }
}
