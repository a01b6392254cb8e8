import Facts
import GitReader
import Journal
import Narrative
import Support

/// `gitjournal uninstall`: takes out exactly what `install` put in.
struct UninstallCommand: Command {
  static let spec = CommandSpec(
    name: "uninstall", abstract: "Remove gitjournal's hooks from a repository and stop journaling its new commits.",
    usage: "uninstall [<repo>...] [--keep-config] | uninstall --global",
    options: [
      OptionSpec(name: .keepConfig, abstract: "Keep the repository in the journal; remove only the hooks."),
      OptionSpec(name: .global, abstract: "Remove the global hook that 'install --global' set up."),
    ],
    discussion: """
      Removes gitjournal's post-commit and post-rewrite hooks and puts back any hook they had chained, byte \
      for byte. A gitjournal hook you edited by hand is yours and stays. A hooks folder shared with other \
      journaled repositories (a global core.hooksPath) keeps the hooks until the last of them is uninstalled. \
      With no repository, the one containing the current directory. The repository is retired, not \
      forgotten: its commits until now stay in the journal and in any rebuild; 'gitjournal repos remove \
      --forget <name>' erases them.

      --global removes the lines 'install --global' appended to your global git config, leaving it byte for \
      byte as it was (a previous core.hooksPath applies again), and gitjournal's hooks folder. The repositories \
      it registered stay in the config.
      """,
    examples: [
      "gitjournal uninstall", "gitjournal uninstall ~/code/notes --keep-config", "gitjournal uninstall --global",
    ], arguments: .directories)

  let paths: [String]
  let keepConfig: Bool
  let global: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    global = arguments.has(.global)
    if global && (!arguments.positionals.isEmpty || arguments.has(.keepConfig)) {
      throw UsageError(message: "--global takes no repository and no --keep-config", spec: Self.spec)
    }
    paths = arguments.positionals.isEmpty ? ["."] : arguments.positionals
    keepConfig = arguments.has(.keepConfig)
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let environment = context.environment
    let global = GlobalHookInstaller(
      environment: environment, executable: ExecutablePath.current, configPath: environment.configPath)
    if self.global { return try uninstallGlobal(global, context: context) }
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
      if folder.path == global.hooksFolder {
        // Hooks a per-repository install put in the repository's own folder are not run while the global hook is on,
        // but they would be again once it is removed.
        if let own = try? Repository.open(at: found).commonDirectory + "/hooks" {
          let removed = try uninstallAll(installer, from: own)
          if !removed.isEmpty { context.standardOutput.line("\(root): \(removed.joined(separator: ", ")) in \(own).") }
        }
        let stopped =
          removedEntry.map { "Stopped journaling \($0.name); its commits until now stay in the journal. " } ?? ""
        context.standardOutput.line(
          stopped + "The global hook in \(folder.path) stays for the other repositories "
            + "('gitjournal uninstall --global' removes it).")
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
      let removed = try uninstallAll(installer, from: folder.path)
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

  /// Takes gitjournal's hooks out of `folder`: what was done, hook by hook (nothing for a folder without them).
  private func uninstallAll(_ installer: HookInstaller, from folder: String) throws -> [String] {
    var removed: [String] = []
    for hook in GitHook.allCases {
      switch try installer.uninstall(hook, from: folder) {
      case .removed: removed.append("removed \(hook.rawValue)")
      case .restored: removed.append("removed \(hook.rawValue) and restored your own")
      case .keptEdited: removed.append("kept \(hook.rawValue), which was edited by hand and so is yours")
      case .notInstalled: break
      }
    }
    return removed
  }

  private func uninstallGlobal(_ installer: GlobalHookInstaller, context: CommandContext) throws -> Int32 {
    let out = context.standardOutput
    guard let removal = try installer.uninstall() else {
      out.line("The global hook is not installed; nothing to remove.")
      return ExitStatus.success
    }
    out.line(
      "Removed the global hook: \(removal.configFile) is as it was before 'gitjournal install --global'"
        + (removal.previous.map { ", and core.hooksPath is \($0) again." } ?? "."))
    if !removal.foreignFiles.isEmpty {
      out.line(
        "Left \(installer.hooksFolder) in place: it holds files gitjournal did not write ("
          + removal.foreignFiles.joined(separator: ", ") + ").")
    }
    out.line(
      "The repositories it registered stay in the config: 'gitjournal install <repo>' hooks one, "
        + "'gitjournal repos remove <name>' retires one.")
    return ExitStatus.success
  }
}
