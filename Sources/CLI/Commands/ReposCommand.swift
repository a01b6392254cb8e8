import Facts
import Foundation
import GitReader
import Journal
import Narrative
import Support

/// `gitjournal repos`: lists, adds and removes the repositories the journal reads.
struct ReposCommand: Command {
  static let spec = CommandSpec(
    name: "repos", abstract: "List, add or remove the repositories your journal reads.",
    usage: "repos [list | add <path>... [--name <name>] | remove <name|path>... [--forget]]",
    options: [
      OptionSpec(
        name: "name", abstract: "Project name for 'add' with one path.", valueName: "name",
        defaultValue: "the folder's name"),
      OptionSpec(name: "forget", abstract: "With 'remove': also erase the project's commits from the journal."),
    ],
    discussion: """
      'repos' alone lists each configured repository and whether it can be read. 'remove' retires a \
      repository: its new commits are not journaled, its commits until now stay in the journal. \
      'remove --forget' erases them from every day of the journal too.
      """,
    examples: [
      "gitjournal repos", "gitjournal repos add ~/code/notes --name notes-app", "gitjournal repos remove notes-app",
      "gitjournal repos remove old-site --forget",
    ])

  enum Action { case list, add([String]), remove([String]) }

  let action: Action
  let name: String?
  let forget: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    name = arguments.value("name")
    forget = arguments.has("forget")
    let rest = Array(arguments.positionals.dropFirst())
    switch arguments.positionals.first {
    case nil, "list":
      guard rest.isEmpty else { throw UsageError(message: "'repos list' takes no arguments", spec: Self.spec) }
      action = .list
    case "add":
      guard !rest.isEmpty else { throw UsageError(message: "'repos add' needs a path", spec: Self.spec) }
      guard name == nil || rest.count == 1 else {
        throw UsageError(message: "--name works with one path at a time", spec: Self.spec)
      }
      action = .add(rest)
    case "remove":
      guard !rest.isEmpty else { throw UsageError(message: "'repos remove' needs a name or path", spec: Self.spec) }
      action = .remove(rest)
    case let other?:
      var message = "'\(other)' is not a repos action"
      if let suggestion = Suggestion.closest(to: other, among: ["list", "add", "remove"]) {
        message += "; did you mean '\(suggestion)'?"
      }
      throw UsageError(message: message, spec: Self.spec)
    }
    if name != nil, case .add = action {
    } else if name != nil {
      throw UsageError(message: "--name only goes with 'repos add'", spec: Self.spec)
    }
    if forget, case .remove = action {
    } else if forget {
      throw UsageError(message: "--forget only goes with 'repos remove'", spec: Self.spec)
    }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let registry = RepositoryRegistry(environment: context.environment)
    switch action {
    case .list:
      let entries = try registry.entries()
      if entries.isEmpty {
        context.standardOutput.line("No repositories configured. Add one with 'gitjournal repos add <path>'.")
        return ExitStatus.success
      }
      var problems = 0
      let width = (entries.map(\.name.count).max() ?? 0) + 2
      for entry in entries {
        let health = RepositoryHealth(path: entry.path)
        var status = health.summary
        if let retiredAt = entry.retiredAt {
          status = "retired \(RetirementTime.format(retiredAt)); its commits until then stay in the journal"
        } else if case .problem = health {
          problems += 1
        }
        let padding = String(repeating: " ", count: width - entry.name.count)
        context.standardOutput.line(entry.name + padding + entry.path + "  " + status)
      }
      return problems == 0 ? ExitStatus.success : ExitStatus.partial
    case .add(let paths):
      for path in paths {
        switch try registry.add(path: path, name: name) {
        case .added(let entry): context.standardOutput.line("Added \(entry.name) (\(entry.path)).")
        case .alreadyPresent(let entry):
          context.standardOutput.line("\(entry.name) (\(entry.path)) is already configured.")
        case .resumed(let entry):
          context.standardOutput.line("\(entry.name) (\(entry.path)) is journaled again from now on.")
        }
      }
      return ExitStatus.success
    case .remove(let names):
      var missing = 0
      for nameOrPath in names {
        guard let entry = try registry.entry(nameOrPath: nameOrPath) else {
          context.standardError.line("error: no configured repository is named or located at '\(nameOrPath)'")
          missing += 1
          continue
        }
        if forget {
          context.standardOutput.line(
            "Forgetting \(entry.name) (\(entry.path)): removing it from the config and its commits from the journal.")
          _ = try registry.remove(nameOrPath: entry.path)
          let configuration = try Configuration.load(context.environment)
          let days = try await Journaling(configuration: configuration, environment: context.environment)
            .forget(path: entry.path)
          context.standardOutput.line(
            "Forgot \(entry.name): \(days.count) journal \(days.count == 1 ? "day" : "days") rewritten.")
        } else {
          _ = try registry.retire(nameOrPath: entry.path, now: context.environment.now())
          context.standardOutput.line(
            "Retired \(entry.name) (\(entry.path)): its new commits are not journaled; its commits until now stay "
              + "(add --forget to erase them).")
        }
      }
      if missing > 0 { return ExitStatus.failure }
      return ExitStatus.success
    }
  }
}
