import Foundation
import Testing

@testable import Narrative

/// gitjournal's own HTTP client against a real server on loopback: framing, limits, one total deadline however
/// the server behaves, and cancellation that reaches the socket.
@Suite struct HTTPClientTests {
  let client = HTTPClient()

  func url(_ server: ModelServer, _ path: String) -> URL { URL(string: server.baseURL + path)! }

  @Test func getSendsAMinimalRequestAndReadsTheAnswer() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama))
    let response = try await client.send(method: "GET", url: url(server, "/api/tags"), timeout: 2)
    #expect(response.status == 200)
    let tags = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
    #expect((tags?["models"] as? [Any])?.count == 1)

    let request = try #require(server.requests.first)
    #expect(server.requests.count == 1)
    #expect(request.method == "GET")
    #expect(request.path == "/api/tags")
    #expect(request.headers["host"] == "127.0.0.1:\(server.port)")
    #expect(request.headers["connection"] == "close")
    #expect(request.headers["content-length"] == nil)
    #expect(request.body.isEmpty)
  }

  @Test func postSendsItsBodyWithItsLength() async throws {
    let server = try ModelServer { request in .respond(.json(request.bodyText, status: 201)) }
    let body = Data(#"{"prompt":"café ✓"}"#.utf8)
    let response = try await client.send(method: "POST", url: url(server, "/echo?x=1"), body: body, timeout: 2)
    #expect(response.status == 201)
    #expect(response.body == body)
    let request = try #require(server.requests.first)
    #expect(request.method == "POST")
    #expect(request.path == "/echo?x=1")
    #expect(request.headers["content-length"] == String(body.count))
    #expect(request.headers["content-type"] == "application/json")
    #expect(request.body == body)
  }

  @Test func chunkedAnswerIsReassembled() async throws {
    var behaviour = ModelBehaviour(.ollama)
    behaviour.chunked = true
    let server = try ModelServer(behaviour)
    let response = try await client.send(
      method: "POST", url: url(server, "/api/generate"), body: Data(#"{"model":"m"}"#.utf8), timeout: 2)
    #expect(response.status == 200)
    #expect(response.body == ModelBehaviour.generateAnswer(ModelBehaviour.sentence, model: "m").body)
  }

  @Test func chunkedAnswerCutShortIsMalformed() async throws {
    // A chunked head and the first chunks, then the server closes: the body never completes.
    let whole = ModelServer.Reply(
      status: 200, contentType: "application/json", body: Data(#"{"response":"Ada"}"#.utf8), chunked: true)
    let truncated = Array(whole.bytes.dropLast(12))
    let server = try ModelServer { _ in .respond(.raw(truncated)) }
    await #expect(throws: HTTPClient.Failure.malformedResponse("truncated chunked body")) {
      try await client.send(method: "GET", url: url(server, "/"), timeout: 2)
    }
  }

  @Test func answerLargerThanTheLimitIsRefused() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama, generationFault: .huge))
    await #expect(throws: HTTPClient.Failure.responseTooLarge(limit: HTTPClient.maximumResponseBytes)) {
      try await client.send(method: "POST", url: url(server, "/api/generate"), body: Data("{}".utf8), timeout: 10)
    }
    #expect(server.requests.count == 1)
  }

  /// Refused as soon as the limit is passed, not when the answer ends: this one never does, so a client that read on
  /// would fail by its deadline instead, and the server would not see it close the connection.
  @Test func answerPastTheLimitIsRefusedBeforeItEnds() async throws {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n"
    let endless =
      Array(head.utf8) + Array(repeating: UInt8(ascii: " "), count: HTTPClient.maximumResponseBytes + 65_536)
    let server = try ModelServer { _ in .unfinished(endless) }
    await #expect(throws: HTTPClient.Failure.responseTooLarge(limit: HTTPClient.maximumResponseBytes)) {
      try await client.send(method: "GET", url: url(server, "/api/tags"), timeout: 30)
    }
    #expect(await server.waitUntil { $0.connectionsClosedByClient == 1 })
  }

  @Test func refusedConnectionFailsAtOnce() async throws {
    // Refused, not retried until the deadline: a client that waited would fail with `timedOut` instead.
    let target = URL(string: try ModelServer.refusingURL() + "/api/tags")!
    await #expect {
      try await client.send(method: "GET", url: target, timeout: 5)
    } throws: { error in
      guard case .connectionFailed(let reason) = error as? HTTPClient.Failure else { return false }
      return reason.lowercased().contains("refused")
    }
  }

  @Test func serverThatHangsUpIsAMalformedResponse() async throws {
    let server = try ModelServer { _ in .hangUp }
    await #expect(throws: HTTPClient.Failure.malformedResponse("the server closed the connection without answering")) {
      try await client.send(method: "GET", url: url(server, "/api/tags"), timeout: 2)
    }
  }

  /// A reset comes from a server that accepted the connection: the connection was lost, not refused.
  @Test func resetConnectionIsALostConnection() async throws {
    let server = try ModelServer { _ in .reset }
    await #expect {
      try await client.send(method: "GET", url: url(server, "/api/tags"), timeout: 2)
    } throws: { error in
      guard case .connectionLost(let reason) = error as? HTTPClient.Failure else { return false }
      return reason.lowercased().contains("reset")
    }
  }

  @Test func bodyWithoutLengthEndsWithTheConnection() async throws {
    let server = try ModelServer { _ in
      .respond(.raw(Array("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nOllama is running".utf8)))
    }
    let response = try await client.send(method: "GET", url: url(server, "/"), timeout: 2)
    #expect(response.status == 200)
    #expect(String(decoding: response.body, as: UTF8.self) == "Ollama is running")
  }

  /// URLSession on Linux resets its timer on every byte; this client must not.
  @Test func drippingServerIsCutOffAtTheTotalDeadline() async throws {
    let server = try ModelServer(ModelBehaviour(.ollama, healthFault: .drip))
    let target = url(server, "/api/tags")
    // The whole answer takes longer than the deadline, but a byte comes every 0.2 s: a client that restarted its
    // timer on each byte would read it all and succeed.
    #expect(ModelBehaviour.tags(llamaServer: false).bytes.count > 10)
    await DedicatedThread.run { [client] in
      await #expect(throws: HTTPClient.Failure.timedOut(seconds: 1)) {
        try await client.send(method: "GET", url: target, timeout: 1)
      }
    }
    // The server did send bytes (so the idle time never reached the limit) and saw the client give up.
    #expect(await server.waitUntil { $0.connectionsClosedByClient == 1 })
  }

  @Test func lateAnswerIsCutOffAtTheDeadline() async throws {
    var behaviour = ModelBehaviour(.ollama, healthFault: .late)
    behaviour.lateBy = 3
    let server = try ModelServer(behaviour)
    let target = url(server, "/api/tags")
    await DedicatedThread.run { [client] in
      await #expect(throws: HTTPClient.Failure.timedOut(seconds: 1)) {
        try await client.send(method: "GET", url: target, timeout: 1)
      }
    }
    #expect(server.requests.count == 1)
    // The client gave up while the server was still waiting to answer.
    #expect(await server.waitUntil { $0.connectionsClosedByClient == 1 })
  }

  /// URLSession on Linux turns any timeout under a second into zero; here 0.3 s means 0.3 s.
  @Test(arguments: [0.25, 0.5])
  func subSecondTimeoutsAreHonoured(timeout: Double) async throws {
    // Not rounded up to a second: an answer 0.6 s past the limit is never read.
    let late = try ModelServer { _ in .delay(timeout + 0.6, then: .respond(.json(#"{"models":[]}"#))) }
    let target = url(late, "/api/tags")
    await DedicatedThread.run { [client] in
      await #expect(throws: HTTPClient.Failure.timedOut(seconds: timeout)) {
        try await client.send(method: "GET", url: target, timeout: timeout)
      }
    }
    #expect(late.requests.count == 1)
    #expect(await late.waitUntil { $0.connectionsClosedByClient == 1 })

    // And an answer that comes within the limit is read.
    let prompt = try ModelServer { _ in .delay(0.1, then: .respond(.json(#"{"models":[]}"#))) }
    let response = try await client.send(method: "GET", url: url(prompt, "/api/tags"), timeout: timeout)
    #expect(response.status == 200)
  }

  @Test func cancellingTheTaskClosesTheConnectionAtOnce() async throws {
    let server = try ModelServer { _ in .silent }
    let target = url(server, "/api/generate")
    let probe = await DedicatedThread.run { [client] in
      await CancellationProbe.cancel { () -> HTTPClient.Failure? in
        do {
          _ = try await client.send(method: "POST", url: target, body: Data("{}".utf8), timeout: 30)
          return nil
        } catch {
          return error as? HTTPClient.Failure
        }
      } once: {
        await server.waitUntil { $0.requests.count == 1 }
      }
    }
    let (failure, _, _) = try #require(probe, "the request never reached the server")
    #expect(failure == .cancelled)
    // The deadline is 30 s away: the server sees the connection closed only because the cancellation closed it.
    #expect(await server.waitUntil(timeout: 5) { $0.connectionsClosedByClient == 1 })
  }

  @Test func requestLineAndHostHeaderFollowTheURL() throws {
    let endpoint = try HTTPClient.Endpoint(URL(string: "http://[::1]:8080/v1/models?limit=1")!)
    #expect(endpoint.host == "::1")
    #expect(endpoint.port == 8080)
    #expect(endpoint.path == "/v1/models?limit=1")
    #expect(endpoint.hostHeader == "[::1]:8080")
    let head = String(decoding: HTTPClient.requestBytes(method: "GET", endpoint: endpoint, body: nil), as: UTF8.self)
    #expect(head.hasPrefix("GET /v1/models?limit=1 HTTP/1.1\r\nHost: [::1]:8080\r\n"))
    #expect(head.hasSuffix("\r\n\r\n"))

    #expect(throws: HTTPClient.Failure.unsupportedScheme("https")) {
      try HTTPClient.Endpoint(URL(string: "https://127.0.0.1:11434")!)
    }
  }
}
