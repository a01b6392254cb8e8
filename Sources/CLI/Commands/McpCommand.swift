import Facts
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `gitjournal mcp`: serves the journal to a coding assistant over the Model Context Protocol, on stdin and stdout.
struct McpCommand: Command {
  static let spec = CommandSpec(
    name: "mcp", abstract: "Serve your journal to a coding assistant (MCP over stdio), read-only.",
    usage: "mcp",
    discussion: """
      An MCP server on stdin and stdout, for an assistant to start: tools journal_day, journal_range, \
      journal_week, standup and search_commits, each giving the Markdown the CLI prints and the JSON of 'show \
      --json'; and the journal's day, week and month pages as resources. It only reads: nothing is written, \
      rebuilt or narrated, no hook runs and no model server is asked. What it returns goes to the assistant's \
      model, which may be a remote service: a private project (repo.<name>.private) gives its name and counts, \
      never its subjects, branch names, ids or path. Register it with your assistant, for example:
        claude mcp add gitjournal -- gitjournal mcp
      """,
    examples: ["gitjournal mcp", "claude mcp add gitjournal -- gitjournal mcp"])

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.isEmpty else {
      throw UsageError(message: "mcp takes no arguments: the assistant sends its requests on stdin", spec: Self.spec)
    }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    // A client that stops reading ends the server at its next answer's failed write, not with a signal.
    signal(SIGPIPE, SIG_IGN)
    if isatty(0) == 1 {
      context.standardError.line(
        "gitjournal mcp speaks the Model Context Protocol on stdin and stdout, for an assistant to start; "
          + "'gitjournal help mcp' shows how to register it. Ctrl-D ends it.")
    }
    var server = MCPServer(environment: context.environment, output: context.standardOutput)
    await server.serve(input: 0)
    return ExitStatus.success
  }
}
