import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `gitjournal mcp`: a Model Context Protocol server on the stdio transport, one JSON-RPC 2.0 message per line.
/// Requests are answered one at a time, in order. Nothing it does writes the journal, asks the model or runs a
/// repository's hooks: its tools and resources only read.
struct MCPServer {
  /// The protocol revisions it speaks, the newest first: 2025-06-18 adds `structuredContent` and `outputSchema`.
  static let protocolVersions = ["2025-06-18", "2025-03-26", "2024-11-05"]
  /// The longest message read: a request is a few hundred bytes; a longer line is dropped unread.
  static let longestMessage = 1 << 20

  let environment: Environment
  let output: TextOutput
  /// The revision `initialize` agreed on; nil before it.
  private(set) var version: String?

  init(environment: Environment, output: TextOutput) {
    self.environment = environment
    self.output = output
  }

  /// Serves until the input ends.
  mutating func serve(input: Int32) async {
    var reader = LineReader(descriptor: input, longest: Self.longestMessage)
    while true {
      switch reader.next() {
      case .line(let bytes):
        await handle(bytes)
      case .tooLong(let length):
        send(
          error: .invalidRequest(
            "a message of \(length) bytes is longer than the \(Self.longestMessage >> 20) MB gitjournal reads"),
          id: .null)
      case .unterminated(let bytes):
        await handle(bytes, isLast: true)
      case .end:
        return
      }
    }
  }

  private mutating func handle(_ bytes: [UInt8], isLast: Bool = false) async {
    guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
    guard let message = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else {
      let problem =
        isLast
        ? "the input ended in the middle of a message" : "a message that is not JSON; send one JSON-RPC object a line"
      send(error: .parseError(problem), id: .null)
      return
    }
    guard case .object(let members) = message else {
      var what = "not a JSON-RPC object"
      if case .array = message { what = "a batch; send one request a line" }
      send(error: .invalidRequest("the message is \(what)"), id: .null)
      return
    }
    // An id that is not a string or a number cannot be answered with.
    let id: JSONValue?
    switch members["id"] {
    case nil: id = nil
    case .string?, .integer?: id = members["id"]
    default:
      send(error: .invalidRequest("'id' must be a string or an integer"), id: .null)
      return
    }
    guard members["jsonrpc"] == .string("2.0") else {
      send(error: .invalidRequest("'jsonrpc' must be \"2.0\""), id: id ?? .null)
      return
    }
    guard case .string(let method)? = members["method"] else {
      // A response to a request of ours: the server sends none, so there is nothing to match it with.
      if id != nil, members["result"] != nil || members["error"] != nil { return }
      send(error: .invalidRequest("'method' must be a string"), id: id ?? .null)
      return
    }
    guard let id else { return }  // A notification: never answered (`notifications/initialized`, cancellations).
    do {
      send(result: try await answer(method, params: members["params"]), id: id)
    } catch {
      send(error: error, id: id)
    }
  }

  private mutating func answer(_ method: String, params given: JSONValue?) async throws(JSONRPCError) -> JSONValue {
    let params: [String: JSONValue]
    switch given {
    case nil: params = [:]
    case .object(let members)?: params = members
    case let value?: throw .invalidParameter("params", "an object, not \(ToolArguments.kind(of: value))")
    }
    if method == "ping" { return .object([:]) }
    if method == "initialize" { return try initialize(params) }
    guard let version else {
      throw .invalidRequest("a request came before 'initialize': start with the initialize handshake")
    }
    let structured = version >= "2025-06-18"
    switch method {
    case "tools/list":
      _ = try cursor(params)
      return .object(["tools": .array(JournalTools.definitions(structured: structured))])
    case "tools/call":
      guard case .string(let name)? = params["name"] else {
        throw .invalidParameter("name", "the name of the tool to call, a string")
      }
      let outcome = try await JournalTools(environment: environment).call(name, arguments: params["arguments"])
      var result: [String: JSONValue] = [
        "content": .array([.object(["type": .string("text"), "text": .string(outcome.text)])]),
        "isError": .bool(outcome.isError),
      ]
      if structured, let report = outcome.structured { result["structuredContent"] = report }
      return .object(result)
    case "resources/list":
      return try JournalResources(environment: environment).list(cursor: try cursor(params))
    case "resources/templates/list":
      _ = try cursor(params)
      return JournalResources.templates
    case "resources/read":
      guard case .string(let uri)? = params["uri"] else {
        throw .invalidParameter("uri", "the page to read, a string such as gitjournal://day/2026-03-10")
      }
      return try JournalResources(environment: environment).read(uri: uri)
    default:
      throw .methodNotFound
    }
  }

  /// The handshake: the client's revision when it is one of ours, else the newest of ours, which it may refuse.
  private mutating func initialize(_ params: [String: JSONValue]) throws(JSONRPCError) -> JSONValue {
    guard version == nil else { throw .invalidRequest("'initialize' came twice: the session is initialized") }
    guard case .string(let requested)? = params["protocolVersion"] else {
      throw .invalidParameter("protocolVersion", "the protocol revision the client speaks, a string such as 2025-06-18")
    }
    let agreed = Self.protocolVersions.contains(requested) ? requested : Self.protocolVersions[0]
    version = agreed
    return .object([
      "protocolVersion": .string(agreed),
      "capabilities": .object(["tools": .object([:]), "resources": .object([:])]),
      "serverInfo": .object(["name": .string("gitjournal"), "version": .string(Version.current)]),
      "instructions": .string(
        "gitjournal keeps a daily journal of the user's commits across their repositories. Use journal_day, "
          + "journal_week and journal_range for what they did, standup for a stand-up, search_commits to find a "
          + "commit by its subject. Everything is read-only. Private projects give their name and counts only."),
    ])
  }

  private func cursor(_ params: [String: JSONValue]) throws(JSONRPCError) -> String? {
    switch params["cursor"] {
    case nil, .null?: return nil
    case .string(let cursor)?: return cursor
    case let value?:
      throw .invalidParameter("cursor", "a string a list answer gave, not \(ToolArguments.kind(of: value))")
    }
  }

  private func send(result: JSONValue, id: JSONValue) {
    output.line(JSONValue.object(["jsonrpc": .string("2.0"), "id": id, "result": result]).line)
  }

  private func send(error: JSONRPCError, id: JSONValue) {
    output.line(JSONValue.object(["jsonrpc": .string("2.0"), "id": id, "error": error.json]).line)
  }
}
