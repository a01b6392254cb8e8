import Foundation
import Testing

/// `doctor`'s model line against real loopback servers: it asks the engine (its health check and model list),
/// so each verdict follows from what the server answered.
@Suite struct DoctorModelTests {
  private func doctor(
    engine: String, model: String = "gemma3:4b", server: ModelServer
  ) async throws -> (output: String, requests: [String]) {
    let sandbox = try JournalSandbox()
    try sandbox.configure("narrative.engine", engine)
    try sandbox.configure("narrative.url", server.baseURL)
    try sandbox.configure("narrative.model", model)
    try sandbox.configure("narrative.healthTimeout", "2")
    let result = await sandbox.run("doctor")
    let modelLines = result.standardOutput.split(separator: "\n").filter { $0.contains("model:") }
    return (modelLines.joined(separator: "\n"), server.requests.map { "\($0.method) \($0.path)" })
  }

  @Test func anOllamaServingTheModelIsFine() async throws {
    let server = try ModelServer(script: ModelBehaviour(.ollama).script)
    let (output, requests) = try await doctor(engine: "ollama", server: server)
    #expect(output.contains("model: ollama at \(server.baseURL) serves gemma3:4b"), "\(output)")
    #expect(requests.allSatisfy { $0 == "GET /api/tags" }, "\(requests)")
  }

  @Test func aModelNotPulledIsNamedWithTheCommandThatPullsIt() async throws {
    let server = try ModelServer(script: ModelBehaviour(.ollama).script)
    let (output, _) = try await doctor(engine: "ollama", model: "qwen3:1.7b", server: server)
    #expect(output.contains("qwen3:1.7b is not pulled"), "\(output)")
    #expect(output.contains("ollama pull qwen3:1.7b"), "\(output)")
  }

  @Test func anOpenAIServerSetAsOllamaGetsTheSettingThatFixesIt() async throws {
    let server = try ModelServer(script: ModelBehaviour(.openAI).script)
    let (output, requests) = try await doctor(engine: "ollama", server: server)
    #expect(output.contains("speaks the OpenAI API, not Ollama's; set narrative.engine = openai"), "\(output)")
    #expect(requests.contains("GET /v1/models"), "\(requests)")
  }

  @Test func anOpenAIServerListingOtherModelsSaysWhichItHas() async throws {
    let server = try ModelServer(script: ModelBehaviour(.openAI).script)
    let (output, requests) = try await doctor(engine: "openai", model: "other-model", server: server)
    #expect(output.contains("not other-model; set narrative.model"), "\(output)")
    #expect(requests.allSatisfy { $0 == "GET /v1/models" }, "\(requests)")
  }

  @Test func nothingListeningSaysHowToStartTheServer() async throws {
    let sandbox = try JournalSandbox()
    try sandbox.configure("narrative.engine", "openai")
    try sandbox.configure("narrative.url", try ModelServer.refusingURL())
    let result = await sandbox.run("doctor")
    #expect(result.standardOutput.contains("no openai server answers at"), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("start your OpenAI-compatible server"))
  }

  @Test func aRemoteAddressIsRefusedWithoutARequest() async throws {
    let sandbox = try JournalSandbox()
    try sandbox.configure("narrative.engine", "ollama")
    try sandbox.configure("narrative.url", "http://192.0.2.1:11434")
    let result = await sandbox.run("doctor")
    #expect(result.standardOutput.contains("refusing to send the prompt to 192.0.2.1"), "\(result.standardOutput)")
  }
}
