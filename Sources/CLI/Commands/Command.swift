import Facts
import GitReader
import Narrative
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A subcommand: a spec for parsing and help, and `run`, which returns the exit status. With Swift 6.2 or later,
/// `run` stays on its caller's executor (see `CLI.main`).
protocol Command {
  static var spec: CommandSpec { get }
  init(_ arguments: ParsedArguments) throws(UsageError)
  func run(_ context: CommandContext) async throws -> Int32
}

/// A command in the CLI's table: its spec, and a closure that builds and runs it.
struct RegisteredCommand: Sendable {
  let spec: CommandSpec
  let execute: @Sendable (ParsedArguments, CommandContext) async throws -> Int32

  init<C: Command>(_ type: C.Type) {
    spec = C.spec
    execute = { arguments, context in try await C(arguments).run(context) }
  }
}

/// What a running command may touch: its surroundings and its two output streams.
struct CommandContext: Sendable {
  let environment: Environment
  let standardOutput: TextOutput
  let standardError: TextOutput
  /// Where a question's answer is read from, when it is a terminal.
  var standardInput: Int32 = 0

  /// Asks `question` (on standard error) and reads the answer from a terminal: true for `y` or `yes`, false for
  /// anything else or none. Nil, asking nothing, when standard input is no terminal (a script).
  func confirm(_ question: String) -> Bool? {
    guard isatty(standardInput) == 1 else { return nil }
    standardError.write(question + " [y/N] ")
    var answer: [UInt8] = []
    var byte: UInt8 = 0
    while answer.count < 256 {
      let count = read(standardInput, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
      answer.append(byte)
    }
    let text = String(decoding: answer.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }, as: UTF8.self)
      .lowercased()
    return text == "y" || text == "yes"
  }
}

/// Exit statuses, as the README documents them.
public enum ExitStatus {
  public static let success: Int32 = 0
  public static let failure: Int32 = 1
  /// The journal was written, but at least one repository was skipped (each named on stderr).
  public static let partial: Int32 = 2
  public static let usage: Int32 = 64
  /// Stopped by Ctrl-C (128 + SIGINT, as shells report it).
  public static let interrupted: Int32 = 130
}
