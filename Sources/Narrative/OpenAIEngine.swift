import Foundation
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

  func write(system: String, prompt: String) async throws -> String {
    let body: [String: Any] = [
      "model": settings.model,
      "messages": [["role": "system", "content": system], ["role": "user", "content": prompt]],
      "temperature": settings.temperature, "max_tokens": 120, "stream": false,
    ]
    let answer = try await endpoint.post("/v1/chat/completions", body: body, timeout: settings.timeout)
    guard let choices = answer["choices"] as? [[String: Any]],
      let message = choices.first?["message"] as? [String: Any],
      let text = message["content"] as? String
    else {
      throw NarrativeError.invalidAnswer("no choices[0].message.content in the answer")
    }
    return text
  }
}
