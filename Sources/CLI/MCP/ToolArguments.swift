import Facts
import Support

/// A tool's `arguments`, checked: an object whose keys are the tool's parameters, each of its type. Every problem
/// is a -32602 error that names the parameter.
struct ToolArguments {
  let tool: String
  let members: [String: JSONValue]

  init(_ value: JSONValue?, tool: String, parameters: [String]) throws(JSONRPCError) {
    self.tool = tool
    switch value {
    case nil, .null?: members = [:]
    case .object(let members)?: self.members = members
    default: throw .invalidParameter("arguments", "an object of \(tool)'s parameters, not \(Self.kind(of: value!))")
    }
    for name in members.keys.sorted() where !parameters.contains(name) {
      let known = parameters.isEmpty ? "it takes none" : "it takes " + parameters.joined(separator: ", ")
      throw .invalidParameter(name, "not a parameter of \(tool); \(known)")
    }
  }

  func string(_ name: String) throws(JSONRPCError) -> String? {
    switch members[name] {
    case nil, .null?: return nil
    case .string(let text)?: return text
    case let value?: throw .invalidParameter(name, "a string, not \(Self.kind(of: value))")
    }
  }

  func integer(_ name: String, in range: ClosedRange<Int>) throws(JSONRPCError) -> Int? {
    switch members[name] {
    case nil, .null?: return nil
    case .integer(let number)? where range.contains(number): return number
    case let value?:
      throw .invalidParameter(name, "a whole number from \(range.lowerBound) to \(range.upperBound), not \(value.line)")
    }
  }

  /// A day as `show` takes it: YYYY-MM-DD, today, yesterday or -N.
  func day(_ name: String, today: Day) throws(JSONRPCError) -> Day? {
    guard let text = try string(name) else { return nil }
    // The text is not repeated: an answer holds nothing the server was not sure of, whatever the client sent.
    guard let day = try? DayArgument.parse(text, today: today, spec: ShowCommand.spec) else {
      throw .invalidParameter(name, "not a day: use YYYY-MM-DD, today, yesterday or -N (N days ago)")
    }
    return day
  }

  static func kind(of value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "a boolean"
    case .integer, .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
