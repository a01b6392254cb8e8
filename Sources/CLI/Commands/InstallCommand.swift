import Facts
import GitReader
import Journal
import Narrative
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `gitjournal install`: registers repositories and puts the hooks in.
struct InstallCommand: Command {
  static let spec = CommandSpec(
    name: "install", abstract: "Journal a repository on every commit: register it and install its git hooks.",
    usage: "install [<repo>...] [--name <name>] | install --global",
    options: [
      OptionSpec(
        name: .name, abstract: "Project name, with one repository.", valueName: "name",
        defaultValue: "the folder's name"),
      OptionSpec(
        name: .global, abstract: "Journal every repository you commit in, through git's global core.hooksPath."),
    ],
    discussion: """
      Installs post-commit and post-rewrite hooks where git runs them (core.hooksPath when set, else the \
      shared hooks folder, so linked worktrees are covered). The hooks record this gitjournal and the config \
      file in use ($GITJOURNAL_CONFIG, else the default), since GUI clients run hooks without your shell's PATH \
      and variables; install again after moving either. Without that file the hooks do nothing. A hook that is \
      already there, or gitjournal's own edited by hand, keeps running first, with its own exit status; \
      'gitjournal uninstall' puts it back as it was. With no repository, the one containing the current \
      directory. The repository that holds the journal folder is refused: committing the journal would write to \
      the journal.

      --global points git's global core.hooksPath at a hooks folder of gitjournal's, through an include \
      appended to your global git config (a previous core.hooksPath stays as it is written, and its hooks run \
      first; without one, each repository's own .git/hooks run first, for every hook name git knows, with \
      their arguments, input and exit status). The first commit in a repository then registers it, when a \
      journal.include pattern matches it (all do when there is none) and no journal.exclude pattern or \
      repo.<name>.exclude does. A repository with its own core.hooksPath (husky) is not covered: install names \
      those it knows. 'gitjournal uninstall --global' leaves your git config byte for byte as it was.
      """,
    examples: [
      "gitjournal install", "gitjournal install ~/code/notes --name notes-app", "gitjournal install --global",
    ], arguments: .directories)

  let paths: [String]
  let name: String?
  let global: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    global = arguments.has(.global)
    if global && (!arguments.positionals.isEmpty || arguments.value(.name) != nil) {
      throw UsageError(message: "--global takes no repository and no --name", spec: Self.spec)
    }
    paths = arguments.positionals.isEmpty ? ["."] : arguments.positionals
    name = arguments.value(.name)
    if name != nil && paths.count > 1 {
      throw UsageError(message: "--name works with one repository at a time", spec: Self.spec)
    }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    if global { return try installGlobal(context) }
    let environment = context.environment
    let registry = RepositoryRegistry(environment: environment)
    for path in paths {
      let (found, root) = try HookInstaller.repository(named: path, environment: environment)
      let folder = try HookInstaller.hooksFolder(of: found, home: environment.home)
      let registration = try registry.add(path: root, name: name)
      context.standardOutput.line(try Self.installHooks(in: folder, for: registration, environment: environment))
    }
    await Self.refreshToday(environment)
    return ExitStatus.success
  }

  private func installGlobal(_ context: CommandContext) throws -> Int32 {
    let environment = context.environment
    let out = context.standardOutput
    let configPath = environment.configPath
    // The hooks do nothing without the config file they record.
    if access(configPath, F_OK) != 0 {
      try makeFolders(PathText.folder(of: configPath))
      try AtomicFile.write("", to: configPath)
    }
    let installer = GlobalHookInstaller(
      environment: environment, executable: ExecutablePath.current, configPath: configPath)
    let installation = try installer.install()
    if installation.wasInstalled {
      out.line("The global hook is already installed in \(installer.hooksFolder); its scripts are up to date.")
    } else {
      out.line(
        "Installed the global hook: core.hooksPath is \(installer.hooksFolder), through an include appended to "
          + "\(installation.configFile).")
    }
    if let previous = installation.previous {
      out.line("Its hooks run those of \(previous) (the core.hooksPath before) first, with their exit status.")
    } else {
      out.line("Its hooks run each repository's own .git/hooks first, with their exit status.")
    }
    out.line(
      "The first commit in a repository registers it (journal.include and journal.exclude choose which; "
        + "'gitjournal help config').")
    let effective = GlobalGitConfig(environment: environment).hooksPath()
    if effective != installer.hooksFolder {
      context.standardError.line(
        "warning: git's core.hooksPath is \(effective ?? "unset"), set after gitjournal's include: git does not run "
          + "gitjournal's hooks until that setting goes")
    }
    let known = (try? RepositoryRegistry(environment: environment).entries().filter { !$0.isRetired }.map(\.path)) ?? []
    let current = Repository.discover(from: environment.currentDirectory).map { [Repository.mainRoot(of: $0)] } ?? []
    for (_, line) in installer.uncoveredLines(known + current.filter { !known.contains($0) }) { out.line(line) }
    return ExitStatus.success
  }

  /// Puts the hooks into `folder` for a repository just registered; returns the line that says what changed.
  static func installHooks(
    in folder: HookInstaller.HooksFolder, for registration: RepositoryRegistry.AddResult, environment: Environment
  ) throws -> String {
    let entry = registration.entry
    if folder.path == GlobalHookInstaller(environment: environment, executable: "", configPath: "").hooksFolder {
      // gitjournal's own global folder: its hooks are there already, for every repository.
      return "\(entry.name) (\(entry.path)): journaled, through the global hook in \(folder.path)."
    }
    let installer = HookInstaller(executable: ExecutablePath.current, configPath: environment.configPath)
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
    if case .resumed = registration { changes.append("journaled again from now on") }
    let location = folder.fromHooksPath ? "\(folder.path) (core.hooksPath)" : folder.path
    if changes.isEmpty, case .alreadyPresent = registration {
      return "\(entry.name) (\(entry.path)) is already journaled; hooks in \(location)."
    }
    let what = changes.isEmpty ? "hooks already in place" : changes.joined(separator: ", ")
    return "\(entry.name) (\(entry.path)): \(what) in \(location)."
  }

  /// Today's file gains the commits the repository already has today, so `show` and the file agree at once
  /// instead of at the next commit. A failure here only delays that to the next commit.
  static func refreshToday(_ environment: Environment) async {
    guard let configuration = try? Configuration.load(environment), !configuration.repositories.isEmpty else { return }
    let today = configuration.calendar.day(containing: environment.now())
    _ = try? await Journaling(configuration: configuration, environment: environment).refresh(days: [today])
  }
}
