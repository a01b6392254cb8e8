/// The JSON bodies the two engines send and read, as typed values: a field the server leaves out or sends with
/// another type is a decoding error, which the endpoint turns into `NarrativeError.invalidAnswer`.
enum EngineMessages {
  /// `POST /api/generate` (Ollama).
  struct OllamaGenerate: Encodable {
    struct Options: Encodable {
      let temperature: Double
      let numPredict: Int

      enum CodingKeys: String, CodingKey {
        case temperature
        case numPredict = "num_predict"
      }
    }

    let model: String
    let system: String
    let prompt: String
    let stream = false
    let think = false
    /// Keeps the model loaded a while after the last sentence, as Ollama's default does.
    let keepAlive = "10m"
    let options: Options

    enum CodingKeys: String, CodingKey {
      case model, system, prompt, stream, think, options
      case keepAlive = "keep_alive"
    }
  }

  /// Ollama's answer to `/api/generate` with `stream: false`.
  struct OllamaAnswer: Decodable {
    let response: String
  }

  /// `GET /api/tags` (Ollama): the models pulled.
  struct OllamaTags: Decodable {
    struct Model: Decodable { let name: String }
    let models: [Model]
  }

  /// `POST /v1/chat/completions` (OpenAI-compatible).
  struct ChatRequest: Encodable {
    struct Message: Encodable {
      let role: String
      let content: String
    }

    let model: String
    let messages: [Message]
    let temperature: Double
    let maxTokens: Int
    let stream = false

    enum CodingKeys: String, CodingKey {
      case model, messages, temperature, stream
      case maxTokens = "max_tokens"
    }
  }

  /// The part of a chat completion gitjournal reads: the first choice's message.
  struct ChatAnswer: Decodable {
    struct Choice: Decodable {
      struct Message: Decodable { let content: String }
      let message: Message
    }
    let choices: [Choice]
  }

  /// `GET /v1/models` (OpenAI-compatible): the models served.
  struct ModelList: Decodable {
    struct Model: Decodable { let id: String }
    let data: [Model]
  }

  /// An error answer: Ollama says `{"error": "text"}`, OpenAI-compatible servers `{"error": {"message": "text"}}`.
  struct ErrorAnswer: Decodable {
    let message: String

    private struct Nested: Decodable { let message: String }
    private enum CodingKeys: String, CodingKey { case error }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      if let text = try? container.decode(String.self, forKey: .error) {
        message = text
      } else {
        message = try container.decode(Nested.self, forKey: .error).message
      }
    }
  }
}
