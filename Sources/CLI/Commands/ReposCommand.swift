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

/// `gitjournal repos`: lists, adds, finds, renames, moves and removes the repositories the journal reads.
struct ReposCommand: Command {
  static let spec = CommandSpec(
    name: "repos", abstract: "List, add, find, rename, move or remove the repositories your journal reads.",
    usage: "repos [list | add <path>... [--name <name>] | scan <folder>... [--depth <n>] [--install] [--dry-run] "
      + "| rename <old> <new> | move <name> <new-path> | remove <name|path>... [--forget [--yes]]]",
    options: [
      OptionSpec(
        name: .name, abstract: "Project name for 'add' with one path.", valueName: "name",
        defaultValue: "the folder's name"),
      OptionSpec(
        name: .depth, abstract: "With 'scan': how many folders down to look.", valueName: "n",
        defaultValue: "\(Self.defaultDepth)"),
      OptionSpec(name: .install, abstract: "With 'scan': also install the hooks of the repositories it adds."),
      OptionSpec(name: .dryRun, abstract: "With 'scan': list what it would add, and change nothing."),
      OptionSpec(name: .forget, abstract: "With 'remove': also erase the project's commits from the journal."),
      OptionSpec(name: .yes, abstract: "With 'remove --forget': erase without asking first."),
    ],
    discussion: """
      'repos' alone lists each configured repository and whether it can be read. 'scan' finds working trees \
      and bare repositories under the folders (not inside a repository it found, nor in hidden folders), and \
      adds those the config does not name yet, one line each; excluded ones (journal.exclude, \
      repo.<name>.exclude) and the repository holding the journal are skipped with the reason. 'rename' \
      changes a project's name: new days and today's file use it, past files keep the old one until \
      'gitjournal rebuild' rewrites them, which says so. 'move' points a project at its repository's new \
      folder, as the hook log suggests when the old one is gone. 'remove' retires a repository: its new \
      commits are not journaled, its commits until now stay in the journal. 'remove --forget' erases them \
      from every day of the journal too, after asking on a terminal (--yes does not ask).
      """,
    examples: [
      "gitjournal repos", "gitjournal repos add ~/code/notes --name notes-app",
      "gitjournal repos scan ~/code --install",
      "gitjournal repos rename notes notes-app", "gitjournal repos move notes-app ~/src/notes",
      "gitjournal repos remove notes-app", "gitjournal repos remove old-site --forget",
    ],
    actions: [
      ActionSpec("list"), ActionSpec("add", arguments: .directories), ActionSpec("scan", arguments: .directories),
      ActionSpec("rename", arguments: .repositories), ActionSpec("move", arguments: .repositories),
      ActionSpec("remove", arguments: .repositories),
    ])

  static let defaultDepth = 3

  enum Action {
    case list, add([String]), remove([String])
    case scan([String]), rename(String, String), move(String, String)
  }

  let action: Action
  let name: String?
  let forget: Bool
  /// `--yes`: `remove --forget` asks nothing.
  let confirmed: Bool
  let depth: Int
  let installs: Bool
  let dryRun: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    name = arguments.value(.name)
    forget = arguments.has(.forget)
    confirmed = arguments.has(.yes)
    installs = arguments.has(.install)
    dryRun = arguments.has(.dryRun)
    let rest = Array(arguments.positionals.dropFirst())
    if let text = arguments.value(.depth) {
      guard let value = Int(text), (0...20).contains(value) else {
        throw UsageError(message: "--depth takes a number of folders from 0 to 20, not '\(text)'", spec: Self.spec)
      }
      depth = value
    } else {
      depth = Self.defaultDepth
    }
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
    case "scan":
      guard !rest.isEmpty else { throw UsageError(message: "'repos scan' needs a folder", spec: Self.spec) }
      action = .scan(rest)
    case "rename":
      guard rest.count == 2 else { throw UsageError(message: "'repos rename' needs <old> <new>", spec: Self.spec) }
      action = .rename(rest[0], rest[1])
    case "move":
      guard rest.count == 2 else { throw UsageError(message: "'repos move' needs <name> <new-path>", spec: Self.spec) }
      action = .move(rest[0], rest[1])
    case let other?:
      _ = try Self.spec.action(other)
      throw UsageError(message: "'\(other)' is not a repos action", spec: Self.spec)
    }
    if name != nil, case .add = action {
    } else if name != nil {
      throw UsageError(message: "--name only goes with 'repos add'", spec: Self.spec)
    }
    if forget, case .remove = action {
    } else if forget {
      throw UsageError(message: "--forget only goes with 'repos remove'", spec: Self.spec)
    }
    if confirmed && !forget {
      throw UsageError(message: "--yes only goes with 'repos remove --forget'", spec: Self.spec)
    }
    if case .scan = action {
    } else if installs || dryRun || arguments.value(.depth) != nil {
      throw UsageError(message: "--depth, --install and --dry-run only go with 'repos scan'", spec: Self.spec)
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
      let globalFolder = GlobalHookInstaller(environment: context.environment, executable: "", configPath: "")
        .hooksFolder
      for entry in entries {
        let health = RepositoryHealth(path: entry.path)
        var status = health.summary
        if let retiredAt = entry.retiredAt {
          status = "retired \(RetirementTime.format(retiredAt)); its commits until then stay in the journal"
        } else if case .problem = health {
          problems += 1
        } else if case .missing = DoctorCommand.hookState(
          of: entry.path, home: context.environment.home, globalFolder: globalFolder)
        {
          // Readable, but its commits run no hook of gitjournal's (added without one, or the global hook removed):
          // only a rebuild journals them.
          status += ", no hook ('gitjournal install \(entry.path)')"
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
    case .scan(let folders):
      return try await scan(folders, context: context)
    case .rename(let old, let new):
      let entry = try registry.rename(old, to: new)
      context.standardOutput.line(
        "Renamed \(old) to \(entry.name) (\(entry.path)). Today's file and new days use the new name; past files "
          + "keep '\(old)' until 'gitjournal rebuild --since <day>' rewrites them.")
      let configuration = try Configuration.load(context.environment)
      let today = configuration.calendar.day(containing: context.environment.now())
      _ = try? await Journaling(configuration: configuration, environment: context.environment).refresh(days: [today])
      return ExitStatus.success
    case .move(let name, let path):
      let (entry, oldPath) = try registry.move(name, to: path)
      context.standardOutput.line(
        oldPath == entry.path
          ? "\(name) is at \(entry.path) already." : "Moved \(name): \(oldPath) -> \(entry.path).")
      return ExitStatus.success
    case .remove(let names):
      var missing = 0
      var declined = 0
      for nameOrPath in names {
        guard let entry = try registry.entry(nameOrPath: nameOrPath) else {
          context.standardError.line("error: no configured repository is named or located at '\(nameOrPath)'")
          missing += 1
          continue
        }
        if forget {
          if !confirmed,
            context.confirm(
              "Erase every commit of \(entry.name) (\(entry.path)) from the journal, on every day? Your notes stay.")
              == false
          {
            context.standardOutput.line(
              "Kept \(entry.name): nothing erased ('repos remove \(entry.name)' only retires it; --yes erases without "
                + "asking).")
            declined += 1
            continue
          }
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
      if missing > 0 || declined > 0 { return ExitStatus.failure }
      return ExitStatus.success
    }
  }

  /// `repos scan`: finds the repositories under `folders` and adds those the config does not name yet.
  private func scan(_ folders: [String], context: CommandContext) async throws -> Int32 {
    let environment = context.environment
    let out = context.standardOutput
    let registry = RepositoryRegistry(environment: environment)
    let configuration = try Configuration(
      entries: ConfigFile(path: environment.configPath).entries(), environment: environment)
    let known = configuration.repositories + configuration.excludedRepositories
    var taken = Set(known.map(\.name))
    var counts = (added: 0, present: 0, skipped: 0)
    var failed = false
    for folder in folders {
      let absolute = environment.absolute(folder)
      var status = stat()
      guard stat(absolute, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
        context.standardError.line("error: \(absolute) is not a folder")
        failed = true
        continue
      }
      for root in RepositoryFinder(depth: depth).repositories(under: absolute) {
        if let entry = configuration.repositories.first(where: { $0.path == root }) {
          counts.present += 1
          out.line(
            entry.isRetired
              ? "Skipped \(entry.name) (\(root)): retired; 'gitjournal install \(root)' journals it again."
              : "\(entry.name) (\(root)) is already configured.")
          continue
        }
        if let refusal = RegistrationCheck.refusal(root: root, configuration: configuration, automatic: false) {
          counts.skipped += 1
          out.line("Skipped \(root): \(refusal).")
          continue
        }
        if dryRun {
          let name = RepositoryRegistry.uniqueName(RepositoryEntry.defaultName(forPath: root), taken: taken)
          taken.insert(name)
          counts.added += 1
          out.line("Would add \(name) (\(root)).")
          continue
        }
        do {
          let registration = try registry.add(path: root, name: nil)
          counts.added += 1
          out.line("Added \(registration.entry.name) (\(root)).")
          if installs { try installHooks(root, registration: registration, environment: environment, output: out) }
        } catch {
          context.standardError.line("error: \(root): \(error)")
          failed = true
        }
      }
    }
    let verb = dryRun ? "would be added" : "added"
    out.line("\(counts.added) \(verb), \(counts.present) already configured, \(counts.skipped) skipped.")
    if installs && !dryRun && counts.added > 0 { await InstallCommand.refreshToday(environment) }
    return failed ? ExitStatus.failure : ExitStatus.success
  }

  /// `scan --install` for one repository it added: as `install` there, but a bare repository (which needs no hook)
  /// or one whose hooks belong to a hook manager is said so and stays added.
  private func installHooks(
    _ root: String, registration: RepositoryRegistry.AddResult, environment: Environment, output: TextOutput
  ) throws {
    let folder: HookInstaller.HooksFolder
    do {
      folder = try HookInstaller.hooksFolder(of: root, home: environment.home)
    } catch .bare {
      output.line("  bare: nobody commits there, so it needs no hook")
      return
    } catch {
      output.line("  no hooks: \(error)")
      return
    }
    output.line("  " + (try InstallCommand.installHooks(in: folder, for: registration, environment: environment)))
  }
}
