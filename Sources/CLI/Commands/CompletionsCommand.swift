import Facts
import GitReader
import Journal
import Narrative
import Support

/// `gitjournal completions bash|zsh|fish`: a completion script built from the commands' own specs.
struct CompletionsCommand: Command {
  static let spec = CommandSpec(
    name: "completions", abstract: "Print a shell completion script for bash, zsh or fish.",
    usage: "completions bash|zsh|fish",
    discussion: """
      install.sh puts the three scripts where bash-completion, zsh and fish find them. To load one yourself, \
      add to ~/.bashrc:
        source <(gitjournal completions bash)
      to ~/.zshrc (after compinit):
        source <(gitjournal completions zsh)
      or for fish:
        gitjournal completions fish > ~/.config/fish/completions/gitjournal.fish
      """,
    examples: ["gitjournal completions bash"], arguments: .words(Shell.allCases.map(\.rawValue)))

  enum Shell: String, CaseIterable { case bash, zsh, fish }

  let shell: Shell

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.count == 1, let shell = Shell(rawValue: arguments.positionals[0]) else {
      throw UsageError(message: "completions needs one of bash, zsh, fish", spec: Self.spec)
    }
    self.shell = shell
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    context.standardOutput.write(Self.script(for: shell, commands: CLI.commands.map(\.spec)))
    return ExitStatus.success
  }

  static func script(for shell: Shell, commands: [CommandSpec]) -> String {
    let script = CompletionScript(
      commands: commands, topics: HelpTopics.all.keys.sorted(), configKeys: Configuration.knownKeys)
    switch shell {
    case .bash: return script.bash
    case .zsh: return script.zsh
    case .fish: return script.fish
    }
  }
}
