import Facts
import GitReader
import Journal
import Narrative
import Support

/// `gitjournal uninstall`: takes out exactly what `install` put in.
struct UninstallCommand: Command {
  static let spec = CommandSpec(
    name: "uninstall", abstract: "Remove gitjournal's hooks from a repository and stop journaling its new commits.",
    usage: "uninstall [<repo>...] [--keep-config]",
    options: [OptionSpec(name: "keep-config", abstract: "Keep the repository in the journal; remove only the hooks.")],
    discussion: """
      Removes gitjournal's post-commit and post-rewrite hooks and puts back any hook they had chained, byte \
      for byte. A gitjournal hook you edited by hand is yours and stays. A hooks folder shared with other \
      journaled repositories (a global core.hooksPath) keeps the hooks until the last of them is uninstalled. \
      With no repository, the one containing the current directory. The repository is retired, not \
      forgotten: its commits until now stay in the journal and in any rebuild; 'gitjournal repos remove \
      --forget <name>' erases them.
      """,
    examples: ["gitjournal uninstall", "gitjournal uninstall ~/code/notes --keep-config"])

  let paths: [String]
  let keepConfig: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    paths = arguments.positionals.isEmpty ? ["."] : arguments.positionals
    keepConfig = arguments.has("keep-config")
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let environment = context.environment
    let registry = RepositoryRegistry(environment: environment)
    let installer = HookInstaller(executable: ExecutablePath.current, configPath: environment.configPath)
    for path in paths {
      let (found, root) = try HookInstaller.repository(named: path, environment: environment)
      var removedEntry: RepositoryEntry?
      if !keepConfig { removedEntry = try registry.retire(nameOrPath: root, now: environment.now()) }

      guard let folder = try? HookInstaller.hooksFolder(of: found, home: environment.home) else {
        context.standardOutput.line("gitjournal's hooks are not installed in \(root).")
        continue
      }
      let others = try registry.entries().filter { $0.path != root && !$0.isRetired }
      let sharedWith = others.filter {
        (try? HookInstaller.hooksFolder(of: $0.path, home: environment.home))?.path == folder.path
      }
      if !sharedWith.isEmpty && !keepConfig {
        let names = sharedWith.map(\.name).joined(separator: ", ")
        context.standardOutput.line(
          "Stopped journaling \(root); the hooks in \(folder.path) stay for \(names), which share that folder.")
        continue
      }
      if !sharedWith.isEmpty {
        context.standardOutput.line("The hooks in \(folder.path) stay: \(root) and others share that folder.")
        continue
      }
      var removed: [String] = []
      for hook in GitHook.allCases {
        switch try installer.uninstall(hook, from: folder.path) {
        case .removed: removed.append("removed \(hook.rawValue)")
        case .restored: removed.append("removed \(hook.rawValue) and restored your own")
        case .keptEdited: removed.append("kept \(hook.rawValue), which was edited by hand and so is yours")
        case .notInstalled: break
        }
      }
      if removed.isEmpty {
        context.standardOutput.line("gitjournal's hooks are not installed in \(folder.path); nothing to remove.")
      } else {
        context.standardOutput.line("\(root): \(removed.joined(separator: ", ")) in \(folder.path).")
      }
      if let removedEntry {
        context.standardOutput.line(
          "Stopped journaling \(removedEntry.name); its commits until now stay in the journal "
            + "('gitjournal repos remove --forget \(removedEntry.name)' erases them).")
      }
    }
    return ExitStatus.success
  }
}
