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

  static func methodNotFound(_ method: String) -> JSONRPCError {
    JSONRPCError(
      code: -32601, message: "'\(method)' is not a method gitjournal's MCP server knows",
      data: .object(["method": .string(method)]))
  }

  /// Bad parameters: `parameter` is named in the message and in `data`.
  static func invalidParameter(_ parameter: String, _ problem: String) -> JSONRPCError {
    JSONRPCError(
      code: -32602, message: "invalid parameter '\(parameter)': \(problem)",
      data: .object(["parameter": .string(parameter)]))
  }

  static func internalError(_ message: String) -> JSONRPCError { JSONRPCError(code: -32603, message: message) }

  /// MCP's code for a resource that does not exist.
  static func resourceNotFound(_ uri: String) -> JSONRPCError {
    JSONRPCError(
      code: -32002, message: "no journal page at \(uri): 'resources/list' lists those there are",
      data: .object(["uri": .string(uri)]))
  }

  var json: JSONValue {
    var members: [String: JSONValue] = ["code": .integer(code), "message": .string(message)]
    if let data { members["data"] = data }
    return .object(members)
  }
}
