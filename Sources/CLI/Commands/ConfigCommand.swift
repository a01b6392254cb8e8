import Facts
import GitReader
import Journal
import Narrative
import Support

/// `gitjournal config`: reads and changes the config file from the command line. A change is checked by the config
/// reader itself, on the whole file as it would be: whatever the reader would reject is refused, and the file is not
/// touched. Writes go through libgit2 (comments and layout kept, the file replaced atomically) under the config lock.
struct ConfigCommand: Command {
  static let spec = CommandSpec(
    name: "config", abstract: "Get, set or unset a config key, checked as gitjournal reads it.",
    usage: "config (list [--names] | get <key> | set <key> <value> | add <key> <value> | unset <key> [<value>])",
    options: [
      OptionSpec(name: .names, abstract: "With 'list': only the names of the configured repositories.")
    ],
    discussion: """
      'set' replaces a key's value (every value, for a key that may have several), 'add' adds one more value to \
      such a key (journal.author, journal.excludePaths, journal.ignoreAuthors, repo.<name>.excludePaths), 'unset' \
      removes every value, or only the one given. A change the config reader would reject (an unknown key, a value \
      out of range, a repo.<name> key for a repository that is not configured) is refused with the reason, and the \
      file stays as it was. repo.<name>.path adds a repository, as 'repos add' does; a relative path there or in \
      journal.dir is taken from the current folder. 'gitjournal help config' lists every key.
      """,
    examples: [
      "gitjournal config list", "gitjournal config get journal.dayStart",
      "gitjournal config set journal.dayStart 04:00",
      "gitjournal config add journal.excludePaths '*.lock'", "gitjournal config unset narrative.model",
    ],
    actions: [
      ActionSpec("list"), ActionSpec("get", arguments: .configKeys), ActionSpec("set", arguments: .configKeys),
      ActionSpec("add", arguments: .configKeys), ActionSpec("unset", arguments: .configKeys),
    ])

  enum Action: Equatable {
    case list(namesOnly: Bool)
    case get(String)
    case set(String, String)
    case add(String, String)
    case unset(String, String?)
  }

  let action: Action

  init(_ arguments: ParsedArguments) throws(UsageError) {
    let words = arguments.positionals
    guard let first = words.first else {
      throw UsageError(message: "config needs list, get, set, add or unset", spec: Self.spec)
    }
    let rest = Array(words.dropFirst())
    func expect(_ counts: ClosedRange<Int>, _ shape: String) throws(UsageError) {
      guard counts.contains(rest.count) else {
        throw UsageError(message: "'config \(first)' takes \(shape)", spec: Self.spec)
      }
    }
    switch try Self.spec.action(first).name {
    case "list":
      try expect(0...0, "no arguments")
      action = .list(namesOnly: arguments.has(.names))
    case "get":
      try expect(1...1, "a key")
      action = .get(rest[0])
    case "set":
      try expect(2...2, "a key and a value")
      action = .set(rest[0], rest[1])
    case "add":
      try expect(2...2, "a key and a value")
      action = .add(rest[0], rest[1])
    default:
      try expect(1...2, "a key, and optionally the one value to remove")
      action = .unset(rest[0], rest.count == 2 ? rest[1] : nil)
    }
    if arguments.has(.names), case .list = action {
    } else if arguments.has(.names) {
      throw UsageError(message: "--names only goes with 'config list'", spec: Self.spec)
    }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let environment = context.environment
    let file = ConfigFile(path: environment.configPath)
    switch action {
    case .list(let namesOnly):
      let entries = try file.entries()
      if namesOnly {
        var environment = environment
        environment.variables[Environment.configRequiredVariable] = nil
        var problems: [ConfigError] = []
        let configuration = Configuration(entries: entries, environment: environment, problems: &problems)
        for repository in configuration.repositories { context.standardOutput.line(repository.name) }
      } else {
        for entry in entries { context.standardOutput.line("\(Configuration.spelling(of: entry.name))=\(entry.value)") }
      }
      return ExitStatus.success
    case .get(let key):
      let entries = try file.entries()
      let values = entries.filter { ConfigFile.sameName($0.name, key) }.map(\.value)
      if values.isEmpty {
        try Self.checkKnown(key, entries: entries, environment: environment)
        context.standardError.line(
          "\(Configuration.spelling(of: key)) is not set in \(file.path); 'gitjournal help config' gives its default")
        return ExitStatus.failure
      }
      for value in values { context.standardOutput.line(value) }
      return ExitStatus.success
    case .set(let key, let value), .add(let key, let value):
      let isAdd = action == .add(key, value)
      let stored = Self.stored(value, key: key, environment: environment)
      try ConfigFile.locked(stateDirectory: environment.stateDirectory) {
        let entries = try file.entries()
        let repeatable = Configuration.isRepeatable(key)
        if isAdd && !repeatable {
          throw ConfigCommandError(
            "\(Configuration.spelling(of: key)) takes one value: use 'gitjournal config set' to change it")
        }
        var after = entries
        if !isAdd { after.removeAll { ConfigFile.sameName($0.name, key) } }
        after.append(ConfigFile.Entry(name: key, value: stored))
        try Self.check(before: entries, after: after, key: key, environment: environment)
        let count = entries.count { ConfigFile.sameName($0.name, key) }
        if isAdd {
          try file.add(key, value: stored)
        } else {
          if count > 1 { try file.removeAll(key) }
          try file.set(key, to: stored)
        }
      }
      if Configuration.split(key).key == "path", Configuration.split(key).section == "repo",
        Repository.discover(from: environment.absolute(stored, relativeTo: file.folder)) == nil
      {
        context.standardError.line("warning: \(stored) is not inside a git repository (yet); doctor will say so")
      }
      return ExitStatus.success
    case .unset(let key, let value):
      try ConfigFile.locked(stateDirectory: environment.stateDirectory) {
        let entries = try file.entries()
        let present = entries.filter { ConfigFile.sameName($0.name, key) }
        guard !present.isEmpty else {
          try Self.checkKnown(key, entries: entries, environment: environment)
          throw ConfigCommandError("\(Configuration.spelling(of: key)) is not set in \(file.path)")
        }
        if let value, !present.contains(where: { $0.value == value }) {
          throw ConfigCommandError("\(Configuration.spelling(of: key)) has no value '\(value)' in \(file.path)")
        }
        let after = entries.filter { !ConfigFile.sameName($0.name, key) || (value != nil && $0.value != value) }
        try Self.check(before: entries, after: after, key: key, environment: environment)
        if let value {
          _ = try file.remove(key, value: value)
        } else {
          try file.removeAll(key)
        }
      }
      return ExitStatus.success
    }
  }

  /// A path as it is stored: relative paths of `journal.dir` and `repo.<name>.path` are made absolute from the
  /// current folder, where the user typed them (the reader takes them from the config file's folder).
  static func stored(_ value: String, key: String, environment: Environment) -> String {
    let parts = Configuration.split(key)
    let isPath =
      (parts.section, parts.subsection == nil, parts.key) == ("journal", true, "dir")
      || (parts.section == "repo" && parts.subsection != nil && parts.key == "path")
    guard isPath, !value.isEmpty, !value.hasPrefix("/"), !value.hasPrefix("~") else { return value }
    return environment.absolute(value)
  }

  /// Refuses a change that gives the reader a problem it did not have: exactly the reader's rules, since the reader
  /// itself reads the file as it would be.
  static func check(
    before: [ConfigFile.Entry], after: [ConfigFile.Entry], key: String, environment: Environment
  ) throws {
    var environment = environment
    environment.variables[Environment.configRequiredVariable] = nil
    var old: [ConfigError] = []
    _ = Configuration(entries: before, environment: environment, problems: &old)
    var new: [ConfigError] = []
    _ = Configuration(entries: after, environment: environment, problems: &new)
    guard let problem = new.first(where: { !old.contains($0) }) else { return }
    if case .repositoryWithoutPath(let name, let suggestion) = problem {
      let parts = Configuration.split(key)
      if parts.key == "path" {
        throw ConfigCommandError(
          "repo.\(name).path cannot go while the section has other keys: 'gitjournal repos remove \(name)' retires "
            + "the repository, 'repos remove --forget \(name)' removes it")
      }
      throw ConfigCommandError(
        "no repository named '\(name)' is configured"
          + (suggestion.map { " (did you mean '\($0)'? Names are case-sensitive)" } ?? "")
          + ": add it first with 'gitjournal repos add <path> --name \(name)'")
    }
    throw problem
  }

  /// Throws the reader's own error for a key it does not know (with its suggestion).
  static func checkKnown(_ key: String, entries: [ConfigFile.Entry], environment: Environment) throws {
    var problems: [ConfigError] = []
    _ = Configuration(entries: [ConfigFile.Entry(name: key, value: "")], environment: environment, problems: &problems)
    for problem in problems {
      switch problem {
      case .unknownKey, .unknownSection: throw problem
      default: continue
      }
    }
  }
}

/// A config change that cannot be made, in words that say what to do instead.
struct ConfigCommandError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
