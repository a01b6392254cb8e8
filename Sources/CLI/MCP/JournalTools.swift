import Facts
import GitReader
import Journal
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The MCP server's tools: the journal's days, ranges, weeks, stand-up and commit search, read as `show` and
/// `standup` read them and never written, narrated or rebuilt. Each returns the Markdown the CLI prints and the
/// JSON `show --json` prints, a private project's subjects, branches, ids and path left out of both.
struct JournalTools: Sendable {
  let environment: Environment

  /// The most commits `search_commits` returns.
  static let mostFound = 100

  /// The longest text `search_commits` looks for: a subject's length in the journal file.
  static let longestText = 200

  static let names = ["journal_day", "journal_range", "journal_week", "standup", "search_commits"]

  /// `tools/list`'s tools. `structured`: the protocol revision has `title`, `outputSchema` and `structuredContent`.
  static func definitions(structured: Bool) -> [JSONValue] {
    let privacy =
      " A private project (repo.<name>.private) gives its name and counts only: its commits are left out and its "
      + "path is empty."
    let tools: [(name: String, title: String, description: String, input: JSONValue, output: JSONValue)] = [
      (
        "journal_day", "Journal of a day",
        "What I committed on one day across all my repositories: the day's journal page in Markdown and, as "
          + "structured content, the JSON of 'gitjournal show <day> --json' (totals, per project its commits with "
          + "time, subject, branch and line counts)." + privacy,
        ToolSchemas.object(["date": ToolSchemas.day("The day; default today.")], closed: true),
        ToolSchemas.dayReport
      ),
      (
        "journal_range", "Journal of a range of days",
        "Every day from since through until, as 'gitjournal show --since <day> --until <day> --json' gives them: "
          + "the range's totals, per project totals, and each day. At most \(ShowCommand.longestRange) days."
          + privacy,
        ToolSchemas.object(
          [
            "since": ToolSchemas.day("The first day."),
            "until": ToolSchemas.day("The last day; default today."),
          ], required: ["since"], closed: true),
        ToolSchemas.rangeReport
      ),
      (
        "journal_week", "Journal of a week",
        "The week that contains a day (journal.weekStart, default Monday), as 'gitjournal show --week <day> --json' "
          + "gives it." + privacy,
        ToolSchemas.object(["date": ToolSchemas.day("A day of the week; default today.")], closed: true),
        ToolSchemas.rangeReport
      ),
      (
        "standup", "Stand-up",
        "What I did on the last day with commits before today, and today so far, per project with the commit "
          + "subjects: the text of 'gitjournal standup --format markdown', and each of the two days as 'gitjournal "
          + "show <day> --json' gives it." + privacy,
        ToolSchemas.object(
          [
            "days": .object([
              "type": .string("integer"), "minimum": .integer(1),
              "maximum": .integer(StandupCommand.longestLookBack),
              "description": .string("How many days before today to look for the last day with commits; default 7."),
            ])
          ], closed: true),
        ToolSchemas.standup
      ),
      (
        "search_commits", "Search commits",
        "My commits whose subject contains a text (any case), newest first, at most \(Self.mostFound), each as "
          + "'gitjournal show --json' gives a commit with its day and project. Private projects are not searched.",
        ToolSchemas.object(
          [
            "text": ToolSchemas.type("string", "What the subject contains."),
            "since": ToolSchemas.day("The first day; default 90 days before until."),
            "until": ToolSchemas.day("The last day; default today."),
          ], required: ["text"], closed: true),
        ToolSchemas.search
      ),
    ]
    return tools.map { tool in
      var members: [String: JSONValue] = [
        "name": .string(tool.name), "description": .string(tool.description), "inputSchema": tool.input,
        "annotations": .object([
          "readOnlyHint": .bool(true), "destructiveHint": .bool(false), "idempotentHint": .bool(true),
          "openWorldHint": .bool(false),
        ]),
      ]
      if structured {
        members["title"] = .string(tool.title)
        members["outputSchema"] = tool.output
      }
      return .object(members)
    }
  }

  /// What a tool returns: its Markdown, its JSON, and whether it failed (a problem of the journal, such as a config
  /// it cannot read, told to the model; bad arguments are a JSON-RPC error instead).
  struct Outcome: Sendable {
    var text: String
    var structured: JSONValue?
    var isError = false
  }

  func call(_ name: String, arguments: JSONValue?) async throws(JSONRPCError) -> Outcome {
    let configuration: Configuration
    do {
      configuration = try Configuration.load(environment)
    } catch {
      return Outcome(text: "error: \(error)", isError: true)
    }
    guard !configuration.repositories.isEmpty else {
      return Outcome(text: "error: \(NoRepositoriesError(configPath: configuration.configPath))", isError: true)
    }
    let today = configuration.calendar.day(containing: environment.now())
    let journaling = Journaling(configuration: configuration, environment: environment)
    let redaction = PrivateRedaction(repositories: configuration.repositories)
    let tool = ToolCall(journaling: journaling, redaction: redaction, today: today)
    switch name {
    case "journal_day":
      let arguments = try ToolArguments(arguments, tool: name, parameters: ["date"])
      return try await tool.day(try arguments.day("date", today: today) ?? today)
    case "journal_range":
      let arguments = try ToolArguments(arguments, tool: name, parameters: ["since", "until"])
      guard let first = try arguments.day("since", today: today) else {
        throw .invalidParameter("since", "journal_range needs the first day of the range")
      }
      let last = try arguments.day("until", today: today) ?? today
      try Self.check(first, last)
      return try await tool.range(from: first, through: last, week: nil)
    case "journal_week":
      let arguments = try ToolArguments(arguments, tool: name, parameters: ["date"])
      let week = Week(containing: try arguments.day("date", today: today) ?? today, starting: configuration.weekStart)
      return try await tool.range(from: week.start, through: week.last, week: week)
    case "standup":
      let arguments = try ToolArguments(arguments, tool: name, parameters: ["days"])
      return try await tool.standup(days: try arguments.integer("days", in: 1...StandupCommand.longestLookBack) ?? 7)
    case "search_commits":
      let arguments = try ToolArguments(arguments, tool: name, parameters: ["text", "since", "until"])
      guard let text = try arguments.string("text"), !text.isEmpty else {
        throw .invalidParameter("text", "search_commits needs the text a subject contains")
      }
      guard text.count <= Self.longestText else {
        throw .invalidParameter("text", "at most \(Self.longestText) characters, not \(text.count)")
      }
      let last = try arguments.day("until", today: today) ?? today
      let first = try arguments.day("since", today: today) ?? last.adding(days: -89)
      try Self.check(first, last)
      return try await tool.search(text, from: first, through: last)
    default:
      throw .invalidParameter("name", "not a tool of gitjournal; they are \(Self.names.joined(separator: ", "))")
    }
  }

  /// The limits `show --since` keeps.
  private static func check(_ first: Day, _ last: Day) throws(JSONRPCError) {
    guard first <= last else { throw .invalidParameter("since", "\(first) is after until, \(last)") }
    guard first.distance(to: last) < ShowCommand.longestRange else {
      throw .invalidParameter(
        "since", "\(first) to \(last) is longer than \(ShowCommand.longestRange) days; ask for a shorter range")
    }
  }
}
