import Foundation
import Testing

@testable import Narrative

/// The health check, which both engines make alike against the server each speaks: one GET of the API's list of
/// models, `true` for a correct answer, `false` for any failure within the health timeout (not the generation's).
@Suite struct EngineHealthTests {
  /// One engine and the request its health check makes.
  struct Case: Sendable, CustomTestStringConvertible {
    let api: ModelBehaviour.API
    let engine: NarrativeSettings.Engine
    let healthRequest: String

    var testDescription: String { "\(engine)" }

    func make(_ url: String, timeout: Double = 2) throws -> any NarrativeEngine {
      var settings = NarrativeSettings()
      settings.engine = engine
      settings.url = url
      settings.healthTimeout = 0.5
      settings.timeout = timeout
      let endpoint = try JSONEndpoint(baseURL: url, allowRemote: false)
      switch engine {
      case .openai: return OpenAIEngine(endpoint: endpoint, settings: settings)
      default: return OllamaEngine(endpoint: endpoint, settings: settings)
      }
    }
  }

  static let cases = [
    Case(api: .ollama, engine: .ollama, healthRequest: "GET /api/tags"),
    Case(api: .openAI, engine: .openai, healthRequest: "GET /v1/models"),
  ]

  @Test(arguments: cases)
  func aHealthCheckIsOneGetOfTheModels(_ engine: Case) async throws {
    let server = try ModelServer(ModelBehaviour(engine.api))
    #expect(try await engine.make(server.baseURL).isAvailable())
    #expect(server.requests.map { "\($0.method) \($0.path)" } == [engine.healthRequest])
  }

  /// A health check that fails in any way (llama-server answers 503 on every route while it loads its model) is
  /// `false`, within the health timeout, not the generation timeout.
  @Test(arguments: cases, ServerFault.healthFaults)
  func aFailingHealthCheckIsFalseWithinTheHealthTimeout(_ engine: Case, fault: ServerFault) async throws {
    let server = try ModelServer(ModelBehaviour(engine.api, healthFault: fault))
    let client = try engine.make(server.baseURL, timeout: 30)
    #expect(await DedicatedThread.run { await client.isAvailable() } == false)
    #expect(server.requests.map { "\($0.method) \($0.path)" } == [engine.healthRequest])
    // A server still waiting or sending sees the client give up: by the health timeout (0.5 s), since the
    // generation's 30 s are not over when this wait ends.
    if [.silent, .late, .drip].contains(fault) {
      #expect(await server.waitUntil(timeout: 10) { $0.connectionsClosedByClient == 1 })
    }
  }
}
