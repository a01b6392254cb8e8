import Facts
import GitReader
import Support

/// `gitjournal hook <name>`: what the installed git hooks call. Always exits 0.
struct HookCommand: Command {
  static let spec = CommandSpec(
    name: "hook", abstract: "Run by the git hooks gitjournal installs; refreshes the journal.",
    usage: "hook post-commit | hook post-rewrite <amend|rebase>",
    discussion: "Not meant to be typed: 'gitjournal install' sets it up. It never fails the git command.",
    examples: ["gitjournal hook post-commit"])

  let hook: GitHook
  let arguments: [String]

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard let name = arguments.positionals.first, let hook = GitHook(rawValue: name) else {
      throw UsageError(message: "'hook' needs post-commit or post-rewrite", spec: Self.spec)
    }
    self.hook = hook
    self.arguments = Array(arguments.positionals.dropFirst())
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    if let line = await HookRunner(environment: context.environment).run(hook, arguments: arguments) {
      context.standardError.line(line)
    }
    return ExitStatus.success
  }
}
