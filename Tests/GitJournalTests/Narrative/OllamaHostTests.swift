import Foundation
import Testing

@testable import Narrative
@testable import Support

/// `OLLAMA_HOST` read the way Ollama's own clients read it (envconfig.Host), and the default URLs.
@Suite struct OllamaHostTests {
  @Test(
    arguments: [
      // Unset or blank: the default.
      (nil, "http://127.0.0.1:11434"),
      ("", "http://127.0.0.1:11434"),
      ("   ", "http://127.0.0.1:11434"),
      // Spaces and quotes around the value are trimmed, in either order.
      ("  \"127.0.0.1:11500\"  ", "http://127.0.0.1:11500"),
      ("'localhost:11500'", "http://localhost:11500"),
      ("\" 127.0.0.1:11500 \"", "http://127.0.0.1:11500"),
      // No scheme: http; no port: 11434.
      ("localhost", "http://localhost:11434"),
      ("127.0.0.1:9999", "http://127.0.0.1:9999"),
      // An explicit scheme without a port means that scheme's port.
      ("http://localhost", "http://localhost:80"),
      ("https://ollama.example.com", "https://ollama.example.com:443"),
      ("http://127.0.0.1:11434", "http://127.0.0.1:11434"),
      // IPv6 loopback, bare or bracketed.
      ("::1", "http://[::1]:11434"),
      ("[::1]", "http://[::1]:11434"),
      ("[::1]:8080", "http://[::1]:8080"),
      // 0.0.0.0 means "every interface" to the server; a client connects to loopback.
      ("0.0.0.0", "http://127.0.0.1:11434"),
      ("0.0.0.0:11500", "http://127.0.0.1:11500"),
      ("http://0.0.0.0:8000", "http://127.0.0.1:8000"),
      // A path is kept.
      ("127.0.0.1:8080/ollama", "http://127.0.0.1:8080/ollama"),
      ("http://localhost/proxy/ollama", "http://localhost:80/proxy/ollama"),
    ] as [(String?, String)])
  func ollamaHostIsReadAsOllamaReadsIt(variable: String?, expected: String) {
    #expect(OllamaHost.baseURL(from: variable) == expected)
  }

  @Test func defaultURLsFollowTheEngine() {
    let environment = Environment(variables: ["OLLAMA_HOST": "127.0.0.1:11500"], currentDirectory: "/")
    var settings = NarrativeSettings()
    #expect(settings.engine == .ollama)
    #expect(settings.baseURL(environment: environment) == "http://127.0.0.1:11500")
    #expect(
      settings.baseURL(environment: Environment(variables: [:], currentDirectory: "/")) == "http://127.0.0.1:11434")
    settings.engine = .openai
    #expect(settings.baseURL(environment: environment) == "http://127.0.0.1:8080")
    settings.url = "http://127.0.0.1:1234"
    #expect(settings.baseURL(environment: environment) == "http://127.0.0.1:1234")
  }

  @Test func defaultsAreTheDocumentedOnes() {
    let settings = NarrativeSettings()
    #expect(settings.model == "gemma3:4b")
    #expect(settings.temperature == 0.2)
    #expect(settings.healthTimeout == 2)
    #expect(settings.timeout == 90)
    #expect(settings.retryDelay == 60)
    #expect(settings.allowRemote == false)
  }
}
