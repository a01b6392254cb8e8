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
    usage: "repos [list | add <path>... [--name <name>] | remove <name|path>...]",
    options: [
      OptionSpec(
        name: "name", abstract: "Project name for 'add' with one path.", valueName: "name",
        defaultValue: "the folder's name")
    ],
    discussion: "'repos' alone lists each configured repository and whether it can be read.",
    examples: [
      "gitjournal repos", "gitjournal repos add ~/code/notes --name notes-app", "gitjournal repos remove notes-app",
    ])

  enum Action { case list, add([String]), remove([String]) }

  let action: Action
  let name: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    name = arguments.value("name")
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
        if case .problem = health { problems += 1 }
        let padding = String(repeating: " ", count: width - entry.name.count)
        context.standardOutput.line(entry.name + padding + entry.path + "  " + health.summary)
      }
      return problems == 0 ? ExitStatus.success : ExitStatus.partial
    case .add(let paths):
      for path in paths {
        switch try registry.add(path: path, name: name) {
        case .added(let entry): context.standardOutput.line("Added \(entry.name) (\(entry.path)).")
        case .alreadyPresent(let entry):
          context.standardOutput.line("\(entry.name) (\(entry.path)) is already configured.")
        }
      }
      return ExitStatus.success
    case .remove(let names):
      for nameOrPath in names {
        if let entry = try registry.remove(nameOrPath: nameOrPath) {
          context.standardOutput.line("Removed \(entry.name) (\(entry.path)).")
        } else {
          context.standardOutput.line("No configured repository is named or located at '\(nameOrPath)'.")
        }
      }
      return ExitStatus.success
    }
  }
}
