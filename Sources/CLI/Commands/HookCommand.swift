import Facts
import GitReader
import Journal
import Support

/// `gitjournal hook <name>`: what the installed git hooks call. Always exits 0.
struct HookCommand: Command {
  static let spec = CommandSpec(
    name: "hook", abstract: "Run by the git hooks gitjournal installs; refreshes the journal.",
    usage: "hook (post-commit | post-rewrite <amend|rebase>) [--config <file>] [--global]",
    options: [
      OptionSpec(
        name: .config, abstract: "The config file, as install recorded it.", valueName: "file",
        defaultValue: "$GITJOURNAL_CONFIG, else the default"),
      OptionSpec(name: .global, abstract: "Run by the global hook: a repository's first commit registers it."),
    ],
    discussion: """
      Not meant to be typed: 'gitjournal install' sets it up. It reads that one config file and, when it is \
      missing or unreadable, does nothing but log one line (never "the current repository with defaults"). It \
      waits at most \(JournalStore.lockTimeout) seconds for another gitjournal writing the journal, then skips \
      with one line in the hook log; the next commit or 'gitjournal rebuild' catches up. It never fails the git \
      command.
      """,
    examples: ["gitjournal hook post-commit"])

  let hook: GitHook
  let arguments: [String]
  let configPath: String?
  let global: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard let name = arguments.positionals.first, let hook = GitHook(rawValue: name) else {
      throw UsageError(message: "'hook' needs post-commit or post-rewrite", spec: Self.spec)
    }
    self.hook = hook
    self.arguments = Array(arguments.positionals.dropFirst())
    configPath = arguments.value(.config)
    global = arguments.has(.global)
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let environment = context.environment
    let runner = HookRunner(
      environment: environment, configPath: configPath.map { environment.absolute($0) }, registers: global)
    if let line = await runner.run(hook, arguments: arguments) {
      context.standardError.line(line)
    }
    return ExitStatus.success
  }
}
