/// A JSON-RPC error answer: the code the specification gives the failure, a sentence that names the thing and the
/// fix, and for bad parameters the parameter's name in `data`.
struct JSONRPCError: Error, Equatable, Sendable {
  let code: Int
  let message: String
  let data: JSONValue?

  init(code: Int, message: String, data: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  static func parseError(_ message: String) -> JSONRPCError { JSONRPCError(code: -32700, message: message) }
  static func invalidRequest(_ message: String) -> JSONRPCError { JSONRPCError(code: -32600, message: message) }

  /// The method is not repeated, as no text the client sent is: see `ToolArguments.day`.
  static let methodNotFound = JSONRPCError(
    code: -32601,
    message: "not a method gitjournal's MCP server knows: it has initialize, ping, tools/list, tools/call, "
      + "resources/list, resources/templates/list and resources/read")

  /// Bad parameters: `parameter` is named in the message and in `data`.
  static func invalidParameter(_ parameter: String, _ problem: String) -> JSONRPCError {
    JSONRPCError(
      code: -32602, message: "invalid parameter '\(parameter)': \(problem)",
      data: .object(["parameter": .string(parameter)]))
  }

  static func internalError(_ message: String) -> JSONRPCError { JSONRPCError(code: -32603, message: message) }

  /// MCP's code for a resource that does not exist.
  static let resourceNotFound = JSONRPCError(
    code: -32002, message: "no such page in the journal: 'resources/list' lists those there are")

  var json: JSONValue {
    var members: [String: JSONValue] = ["code": .integer(code), "message": .string(message)]
    if let data { members["data"] = data }
    return .object(members)
  }
}
