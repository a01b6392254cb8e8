import Facts
import GitReader
import Journal
import Narrative
import Support

/// `gitjournal install`: registers repositories and puts the hooks in.
struct InstallCommand: Command {
  static let spec = CommandSpec(
    name: "install", abstract: "Journal a repository on every commit: register it and install its git hooks.",
    usage: "install [<repo>...] [--name <name>]",
    options: [
      OptionSpec(
        name: "name", abstract: "Project name, with one repository.", valueName: "name",
        defaultValue: "the folder's name")
    ],
    discussion: """
      Installs post-commit and post-rewrite hooks where git runs them (core.hooksPath when set, else the \
      shared hooks folder, so linked worktrees are covered). The hooks record this gitjournal and the config \
      file in use ($GITJOURNAL_CONFIG, else the default), since GUI clients run hooks without your shell's PATH \
      and variables; install again after moving either. Without that file the hooks do nothing. A hook that is \
      already there, or gitjournal's own edited by hand, keeps running first, with its own exit status; \
      'gitjournal uninstall' puts it back as it was. With no repository, the one containing the current \
      directory.
      """,
    examples: ["gitjournal install", "gitjournal install ~/code/notes --name notes-app"])

  let paths: [String]
  let name: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    paths = arguments.positionals.isEmpty ? ["."] : arguments.positionals
    name = arguments.value("name")
    if name != nil && paths.count > 1 {
      throw UsageError(message: "--name works with one repository at a time", spec: Self.spec)
    }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let environment = context.environment
    let registry = RepositoryRegistry(environment: environment)
    let installer = HookInstaller(executable: ExecutablePath.current, configPath: environment.configPath)
    for path in paths {
      let (found, root) = try HookInstaller.repository(named: path, environment: environment)
      let folder = try HookInstaller.hooksFolder(of: found, home: environment.home)
      let registration = try registry.add(path: root, name: name)
      var changes: [String] = []
      for hook in GitHook.allCases {
        switch try installer.install(hook, into: folder.path) {
        case .installed: changes.append("installed \(hook.rawValue)")
        case .updated: changes.append("updated \(hook.rawValue)")
        case .chained:
          changes.append("installed \(hook.rawValue) (your own \(hook.rawValue) hook still runs first)")
        case .chainedEdited:
          changes.append(
            "installed \(hook.rawValue) (your edited \(hook.rawValue) hook is kept as "
              + "\(hook.rawValue)\(HookScript.chainedSuffix) and still runs first)")
        case .unchanged: break
        }
      }
      let entry: RepositoryEntry
      switch registration {
      case .added(let added): entry = added
      case .alreadyPresent(let present): entry = present
      case .resumed(let resumed):
        entry = resumed
        changes.append("journaled again from now on")
      }
      let location = folder.fromHooksPath ? "\(folder.path) (core.hooksPath)" : folder.path
      if changes.isEmpty, case .alreadyPresent = registration {
        context.standardOutput.line("\(entry.name) (\(entry.path)) is already journaled; hooks in \(location).")
      } else {
        let what = changes.isEmpty ? "hooks already in place" : changes.joined(separator: ", ")
        context.standardOutput.line("\(entry.name) (\(entry.path)): \(what) in \(location).")
      }
    }
    await refreshToday(environment)
    return ExitStatus.success
  }

  /// Today's file gains the commits the repository already has today, so `show` and the file agree at once
  /// instead of at the next commit. A failure here only delays that to the next commit.
  private func refreshToday(_ environment: Environment) async {
    guard let configuration = try? Configuration.load(environment), !configuration.repositories.isEmpty else { return }
    let today = configuration.calendar.day(containing: environment.now())
    _ = try? await Journaling(configuration: configuration, environment: environment).refresh(days: [today])
  }
}
