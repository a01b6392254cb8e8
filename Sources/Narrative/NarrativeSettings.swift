import Facts
import GitReader
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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

  // The documented bounds (README, `gitjournal help config`). A config value outside them is an error; a
  // value set in code is clamped to them (`bounded`), so no later conversion ever sees 1e300 or NaN.
  public static let temperatureBounds: ClosedRange<Double> = 0...2
  public static let healthTimeoutBounds: ClosedRange<Double> = 0.1...60
  public static let timeoutBounds: ClosedRange<Double> = 1...3600
  public static let retryDelayBounds: ClosedRange<Double> = 1...86_400

  public init() {}

  /// These settings with every number inside its documented bounds (a NaN becomes the default).
  public var bounded: NarrativeSettings {
    func clamp(_ value: Double, _ bounds: ClosedRange<Double>, default fallback: Double) -> Double {
      value.isNaN ? fallback : min(max(value, bounds.lowerBound), bounds.upperBound)
    }
    var settings = self
    let defaults = NarrativeSettings()
    settings.temperature = clamp(temperature, Self.temperatureBounds, default: defaults.temperature)
    settings.healthTimeout = clamp(healthTimeout, Self.healthTimeoutBounds, default: defaults.healthTimeout)
    settings.timeout = clamp(timeout, Self.timeoutBounds, default: defaults.timeout)
    settings.retryDelay = clamp(retryDelay, Self.retryDelayBounds, default: defaults.retryDelay)
    return settings
  }

  /// The base URL to use: the configured one, else the engine's default.
  public func baseURL(environment: Environment) -> String {
    if let url { return url }
    switch engine {
    case .ollama, .off: return OllamaHost.baseURL(from: environment.variables["OLLAMA_HOST"])
    case .openai: return "http://127.0.0.1:8080"
    }
  }

  /// True unless `url` names a port outside 1...65535. Foundation reads `:65536` as 65536 and drops a port too long
  /// for an Int (so `:99999999999999999999` would quietly mean port 80); this reads the digits itself.
  package static func hasValidPort(_ url: String) -> Bool {
    guard let start = url.firstOccurrence(of: "://")?.upperBound else { return true }
    var authority = url[start...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
    let portText: Substring
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return false }
      let rest = authority[authority.index(after: close)...]
      guard rest.hasPrefix(":") else { return rest.isEmpty }
      portText = rest.dropFirst()
    } else if let colon = authority.lastIndex(of: ":") {
      portText = authority[authority.index(after: colon)...]
    } else {
      return true
    }
    guard (1...5).contains(portText.count), portText.utf8.allSatisfy({ (48...57).contains($0) }),
      let port = Int(portText)
    else { return false }
    return (1...65535).contains(port)
  }
}

/// Reads `OLLAMA_HOST` the way Ollama's own clients do.
enum OllamaHost {
  static let defaultURL = "http://127.0.0.1:11434"

  static func baseURL(from variable: String?) -> String {
    guard var text = variable.map({ String($0.trimmingSpaces()) }), !text.isEmpty else { return defaultURL }
    // As Ollama's envconfig: spaces, then quotes, then the spaces that were inside the quotes.
    text = String(text.trimming { $0 == "\"" || $0 == "'" }.trimmingSpaces())
    guard !text.isEmpty else { return defaultURL }
    var scheme = "http"
    var defaultPort = "11434"
    if let range = text.firstOccurrence(of: "://") {
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
