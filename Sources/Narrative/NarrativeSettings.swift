import Facts
import Foundation
import GitReader
import Support

/// The `narrative.*` settings: which local model server writes the day's sentence, and how long to wait.
public struct NarrativeSettings: Sendable, Equatable {
  public enum Engine: String, Sendable, CaseIterable {
    case ollama, openai, off
  }

  public var engine: Engine = .ollama
  /// The server's base URL; nil means the engine's default (for Ollama, `OLLAMA_HOST` first).
  public var url: String?
  public var model = "gemma3:4b"
  public var temperature = 0.2
  /// Seconds for the health check: short, so a missing server costs nothing.
  public var healthTimeout = 2.0
  /// Seconds for one generation, model loading included.
  public var timeout = 90.0
  /// Seconds without any request after a failure.
  public var retryDelay = 60.0
  public var allowRemote = false

  public init() {}

  /// The base URL to use: the configured one, else the engine's default.
  public func baseURL(environment: Environment) -> String {
    if let url { return url }
    switch engine {
    case .ollama, .off: return OllamaHost.baseURL(from: environment.variables["OLLAMA_HOST"])
    case .openai: return "http://127.0.0.1:8080"
    }
  }
}

/// Reads `OLLAMA_HOST` the way Ollama's own clients do.
enum OllamaHost {
  static let defaultURL = "http://127.0.0.1:11434"

  static func baseURL(from variable: String?) -> String {
    guard var text = variable?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return defaultURL }
    // As Ollama's envconfig: spaces, then quotes, then the spaces that were inside the quotes.
    text = text.trimmingCharacters(in: CharacterSet(charactersIn: "\"'")).trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else { return defaultURL }
    var scheme = "http"
    var defaultPort = "11434"
    if let range = text.range(of: "://") {
      scheme = String(text[..<range.lowerBound]).lowercased()
      text = String(text[range.upperBound...])
      defaultPort = scheme == "https" ? "443" : "80"
    }
    var path = ""
    if let slash = text.firstIndex(of: "/") {
      path = String(text[slash...])
      text = String(text[..<slash])
    }
    var host = text
    var port = defaultPort
    if host.hasPrefix("[") {
      // [::1]:port
      if let close = host.firstIndex(of: "]") {
        let rest = host[host.index(after: close)...]
        if rest.hasPrefix(":") { port = String(rest.dropFirst()) }
        host = String(host[...close])
      }
    } else if host.filter({ $0 == ":" }).count > 1 {
      host = "[\(host)]"
    } else if let colon = host.lastIndex(of: ":") {
      port = String(host[host.index(after: colon)...])
      host = String(host[..<colon])
    }
    if host.isEmpty || host == "0.0.0.0" { host = "127.0.0.1" }
    if host == "[::]" { host = "[::1]" }
    if path == "/" { path = "" }
    return "\(scheme)://\(host):\(port)\(path)"
  }
}
