import Foundation
import Testing

@testable import Narrative

/// The test server's own promises, which the other narrative tests rely on: it answers as scripted, records what
/// it receives, and never outlives its test.
@Suite struct ModelServerTests {
  let client = HTTPClient()

  @Test func answersAsOllamaAndRecordsEveryRequest() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama))
    let root = try await client.send(method: "GET", url: URL(string: server.baseURL + "/")!, timeout: 2)
    #expect(String(decoding: root.body, as: UTF8.self) == "Ollama is running")
    let missing = try await client.send(method: "GET", url: URL(string: server.baseURL + "/v2/x")!, timeout: 2)
    #expect(missing.status == 404)
    #expect(server.requests.map(\.path) == ["/", "/v2/x"])
    #expect(server.connectionCount == 2)
  }

  @Test func stoppedServerRefusesConnections() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama))
    server.stop()
    await #expect {
      try await client.send(method: "GET", url: URL(string: server.baseURL + "/api/tags")!, timeout: 2)
    } throws: { error in
      guard case .connectionFailed = error as? HTTPClient.Failure else { return false }
      return true
    }
    #expect(server.requests.isEmpty)
  }

  /// A server a test forgot stops by itself, and lets go of a client it kept waiting.
  @Test func serverStopsAtTheEndOfItsLifetime() async throws {
    let server = try ModelServer(lifetime: 0.5) { _ in .silent }
    let target = URL(string: server.baseURL + "/api/tags")!
    await #expect(throws: HTTPClient.Failure.self) {
      try await client.send(method: "GET", url: target, timeout: 10)
    }
    try await Task.sleep(nanoseconds: 100_000_000)
    await #expect {
      try await client.send(method: "GET", url: target, timeout: 2)
    } throws: { error in
      guard case .connectionFailed = error as? HTTPClient.Failure else { return false }
      return true
    }
  }
}
