import Facts
import GitReader
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A local model server that can write the day's sentence. The rest of gitjournal does not know which
/// server answers.
public protocol NarrativeEngine: Sendable {
  /// A quick check that the server is up, bounded by the health timeout.
  func health() async -> ServerHealth
  /// The names of the models the server offers, from its health endpoint; nil when it does not answer as this
  /// engine's server does. `doctor` compares them with `narrative.model`.
  func modelNames() async -> [String]?
  /// One generation, bounded by the generation timeout. Throws `NarrativeError` on any failure.
  func write(system: String, prompt: String) async throws -> String
}

extension NarrativeEngine {
  package func isAvailable() async -> Bool { await health() == .up }
}

/// Why no sentence could be had; logged, never shown as a failure of the journal.
public enum NarrativeError: Error, CustomStringConvertible, Equatable, Sendable {
  case remoteRefused(host: String)
  case unavailable(String)
  /// No connection could be made: nothing listens at the server's address.
  case unreachable(String)
  case server(status: Int, message: String)
  case invalidAnswer(String)

  public var description: String {
    switch self {
    case .remoteRefused(let host):
      return
        "refusing to send the prompt to \(host), which is not this machine; set narrative.allowRemote = true to allow it"
    case .unavailable(let reason), .unreachable(let reason): return "the model server is unavailable: \(reason)"
    case .server(let status, let message): return "the model server answered \(status): \(message)"
    case .invalidAnswer(let reason): return "the model server's answer could not be read: \(reason)"
    }
  }
}

/// Shared HTTP plumbing for the JSON engines.
package struct JSONEndpoint: Sendable {
  let baseURL: URL
  let client = HTTPClient()

  package init(baseURL: String, allowRemote: Bool) throws(NarrativeError) {
    guard let url = URL(string: baseURL), let host = url.host, NarrativeSettings.hasValidPort(baseURL) else {
      throw .unavailable("'\(baseURL)' is not a valid URL")
    }
    guard allowRemote || Self.isLoopback(host) else { throw .remoteRefused(host: host) }
    self.baseURL = url
  }

  /// Loopback by name or literal address; decided without any DNS query, so nothing leaves the machine.
  static func isLoopback(_ host: String) -> Bool {
    var name = host.lowercased()
    if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
    let octets = name.split(separator: ".", omittingEmptySubsequences: false)
    return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
  }

  func url(_ path: String) throws(HTTPClient.Failure) -> URL {
    var base = baseURL.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    guard let url = URL(string: base + path) else { throw .invalidURL(base + path) }
    return url
  }

  package func get(_ path: String, timeout: Double) async throws -> HTTPClient.Response {
    try await client.send(method: "GET", url: url(path), timeout: timeout)
  }

  /// GET `path` as a health check: 200 is up; a connection that cannot be made is nothing listening.
  func health(_ path: String, timeout: Double) async -> ServerHealth {
    do {
      return try await get(path, timeout: timeout).status == 200 ? .up : .failing
    } catch HTTPClient.Failure.connectionFailed {
      return .unreachable
    } catch {
      return .failing
    }
  }

  /// POSTs `body` as JSON and decodes the answer; a non-2xx answer becomes `NarrativeError.server` with the
  /// server's own message, an answer of another shape `NarrativeError.invalidAnswer(expected)`.
  func post<Body: Encodable, Answer: Decodable>(
    _ path: String, body: Body, timeout: Double, answer: Answer.Type, expected: String
  ) async throws -> Answer {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode(body)
    let response: HTTPClient.Response
    do {
      response = try await client.send(method: "POST", url: url(path), body: data, timeout: timeout)
    } catch let failure as HTTPClient.Failure {
      if case .connectionFailed = failure { throw NarrativeError.unreachable(failure.description) }
      throw NarrativeError.unavailable(failure.description)
    }
    guard (200..<300).contains(response.status) else {
      throw NarrativeError.server(status: response.status, message: Self.errorMessage(in: response.body))
    }
    guard (try? JSONDecoder().decode(AnyJSONObject.self, from: response.body)) != nil else {
      throw NarrativeError.invalidAnswer(
        "not a JSON object: \(String(decoding: response.body.prefix(80), as: UTF8.self))")
    }
    guard let decoded = try? JSONDecoder().decode(Answer.self, from: response.body) else {
      throw NarrativeError.invalidAnswer(expected)
    }
    return decoded
  }

  /// GETs `path` and decodes it as `Answer`; nil when the server does not answer 200 with that shape.
  func fetch<Answer: Decodable>(_ path: String, timeout: Double, as answer: Answer.Type) async -> Answer? {
    guard let response = try? await get(path, timeout: timeout), response.status == 200 else { return nil }
    return try? JSONDecoder().decode(Answer.self, from: response.body)
  }

  /// The server's own error message when it sent one, else the start of its answer: one line of at most 200
  /// characters with no control characters, since it reaches the log, `doctor` and `rebuild` (see `OneLineText`).
  static func errorMessage(in body: Data) -> String {
    if let answer = try? JSONDecoder().decode(EngineMessages.ErrorAnswer.self, from: body) {
      return OneLineText.make(answer.message, limit: 200)
    }
    let snippet = OneLineText.make(String(decoding: body.prefix(120), as: UTF8.self), limit: 120)
    return snippet.isEmpty ? "no details" : snippet
  }
}

/// Any JSON object, its members unread: whether an answer is one at all, before it is decoded as the answer
/// expected (the decoder reads the whole text, so a document that is not JSON is none).
private struct AnyJSONObject: Decodable {
  init(from decoder: any Decoder) throws {
    _ = try decoder.container(keyedBy: AnyKey.self)
  }

  private struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
