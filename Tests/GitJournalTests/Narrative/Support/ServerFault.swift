import Foundation

/// The ways a model server fails on one route, besides refusing connections (see
/// `ModelServer.refusingURL()`): each is a real answer on the wire, or the absence of one.
enum ServerFault: String, CaseIterable, Sendable, CustomStringConvertible {
  /// Accepts, reads the request and never answers.
  case silent
  /// Answers correctly, but only after `ModelBehaviour.lateBy` seconds: past the deadline.
  case late
  /// Sends the correct answer one byte per 200 ms.
  case drip
  /// Ollama's 404 for a model that was never pulled.
  case modelNotFound
  /// llama-server's 404 for a route it lacks (`/api/generate` when the ollama engine points at it).
  case noGenerateEndpoint
  case internalError
  /// Ollama's 503 when its queue is full.
  case busy
  /// A 200 whose JSON is cut off.
  case invalidJSON
  /// A 200 with an HTML page, as a web server or captive portal on the port would send.
  case htmlPage
  /// A 200 with an empty body.
  case emptyBody
  /// A 200 larger than the client accepts (more than 4 MiB).
  case huge
  /// Closes the connection without a byte.
  case hangUp
  /// Resets the connection, as the kernel does for a server that crashed mid-request.
  case reset

  var description: String { rawValue }

  /// Faults a health check can show: a health check only looks at the status, so a 200 with a bad body passes.
  static let healthFaults: [ServerFault] = [
    .silent, .late, .drip, .modelNotFound, .noGenerateEndpoint, .internalError, .busy, .hangUp, .reset,
  ]

  /// A well-formed Ollama answer of 4.3 MB, built once.
  static let hugeReply: ModelServer.Reply = {
    let filler = String(repeating: "All work and no play makes Jack a dull boy. ", count: 96_000)
    return .json(object: ["model": "gemma3:4b", "response": filler, "done": true])
  }()

  func action(
    correct: ModelServer.Reply, api: ModelBehaviour.API, lateBy: Double
  ) -> ModelServer.Action {
    switch self {
    case .silent: return .silent
    case .late: return .delay(lateBy, then: .respond(correct))
    case .drip: return .drip(correct, interval: 0.2)
    case .modelNotFound:
      return api == .ollama
        ? .respond(.json(#"{"error":"model 'gemma3:4b' not found"}"#, status: 404))
        : .respond(
          .json(
            #"{"error":{"code":404,"message":"model 'gemma3:4b' not found","type":"not_found_error"}}"#, status: 404))
    case .noGenerateEndpoint: return .respond(ModelBehaviour.fileNotFound)
    case .internalError:
      return .respond(.json(#"{"error":"llama runner process has terminated: signal: killed"}"#, status: 500))
    case .busy:
      return .respond(
        .json(#"{"error":"server busy, please try again.  maximum pending requests exceeded"}"#, status: 503))
    case .invalidJSON: return .respond(.json(#"{"model":"gemma3:4b","response":"Ada spent the day"#))
    case .htmlPage:
      return .respond(
        .text(
          "<!DOCTYPE html>\n<html><head><title>Welcome</title></head><body><h1>It works!</h1></body></html>\n",
          type: "text/html; charset=utf-8"))
    case .emptyBody: return .respond(.json(""))
    case .huge: return .respond(Self.hugeReply)
    case .hangUp: return .hangUp
    case .reset: return .reset
    }
  }
}
