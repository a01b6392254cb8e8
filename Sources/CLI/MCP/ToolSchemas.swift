/// The JSON Schemas of the tools' arguments and results. A result's schema follows `show --json` (`DayReport`,
/// `RangeReport`); it names the keys a client may rely on and allows more, so a key `show --json` gains later is
/// still valid.
enum ToolSchemas {
  static func object(_ properties: [String: JSONValue], required: [String] = [], closed: Bool = false) -> JSONValue {
    var schema: [String: JSONValue] = ["type": .string("object"), "properties": .object(properties)]
    if !required.isEmpty { schema["required"] = .array(required.map(JSONValue.string)) }
    if closed { schema["additionalProperties"] = .bool(false) }
    return .object(schema)
  }

  static func type(_ name: String, _ description: String? = nil) -> JSONValue {
    var schema: [String: JSONValue] = ["type": .string(name)]
    if let description { schema["description"] = .string(description) }
    return .object(schema)
  }

  static func nullable(_ name: String) -> JSONValue {
    .object(["type": .array([.string(name), .string("null")])])
  }

  static func array(of items: JSONValue) -> JSONValue { .object(["type": .string("array"), "items": items]) }

  /// A day as the tools take it.
  static func day(_ description: String) -> JSONValue {
    type("string", description + " YYYY-MM-DD, today, yesterday or -N (N days ago).")
  }

  static let counts: [String: JSONValue] = [
    "commitCount": type("integer"), "insertions": type("integer"), "deletions": type("integer"),
    "filesChanged": type("integer"),
  ]

  static let commit = object(
    [
      "id": type("string"), "authoredAt": type("string"), "subject": type("string"), "insertions": type("integer"),
      "deletions": type("integer"), "filesChanged": type("integer"), "branch": nullable("string"),
    ], required: ["id", "authoredAt", "subject", "insertions", "deletions", "filesChanged", "branch"])

  /// `show <day> --json`. A private project's `path` is empty and its `commits` are left out.
  static let dayReport = object(
    counts.merging([
      "date": type("string"), "projectCount": type("integer"), "factualLine": type("string"),
      "narrative": nullable("string"), "signature": type("string"),
      "projects": array(
        of: object(
          counts.merging([
            "name": type("string"), "path": type("string"), "firstCommitAt": type("string"),
            "lastCommitAt": type("string"), "commits": array(of: commit),
          ]) { $1 }, required: ["name", "path", "commitCount", "insertions", "deletions", "filesChanged", "commits"])),
    ]) { $1 },
    required: [
      "date", "commitCount", "projectCount", "insertions", "deletions", "filesChanged", "factualLine", "narrative",
      "signature", "projects",
    ])

  /// `show --week/--since --json`.
  static let rangeReport = object(
    counts.merging([
      "since": type("string"), "until": type("string"), "week": nullable("string"), "projectCount": type("integer"),
      "activeDays": type("integer"), "factualLine": type("string"),
      "projects": array(
        of: object(
          counts.merging(["name": type("string"), "activeDays": type("integer")]) { $1 },
          required: ["name", "commitCount", "activeDays", "insertions", "deletions", "filesChanged"])),
      "days": array(of: dayReport),
    ]) { $1 },
    required: [
      "since", "until", "week", "commitCount", "projectCount", "activeDays", "insertions", "deletions", "filesChanged",
      "factualLine", "projects", "days",
    ])

  /// The stand-up: the last day with commits before today (`show <that day> --json`, or null) and today's.
  static let standup = object(
    [
      "since": type("string", "The first day looked at."),
      "previous": .object(["anyOf": .array([dayReport, type("null")])]),
      "today": dayReport,
    ], required: ["since", "previous", "today"])

  /// Commits found by their subject, newest first: each as `show --json` gives a commit, with its day and project.
  static let search = object(
    [
      "since": type("string"), "until": type("string"),
      "matchCount": type("integer", "How many commits matched, the ones left out past the limit included."),
      "truncated": type("boolean"),
      "commits": array(
        of: object(
          ["date": type("string"), "project": type("string")].merging(commit.object!["properties"]!.object!) { $1 },
          required: ["date", "project", "id", "authoredAt", "subject", "branch"])),
    ], required: ["since", "until", "matchCount", "truncated", "commits"])
}
