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
      bash: add 'source <(gitjournal completions bash)' to ~/.bashrc. zsh: add \
      'source <(gitjournal completions zsh)' to ~/.zshrc. fish: \
      'gitjournal completions fish > ~/.config/fish/completions/gitjournal.fish'.
      """,
    examples: ["gitjournal completions bash"])

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
    let visible = commands.filter { $0.name != "hook" }
    let names = visible.map(\.name) + ["help"]
    switch shell {
    case .bash:
      var cases = ""
      for command in visible {
        let options = command.options.map { "--" + $0.name }.joined(separator: " ")
        cases += "    \(command.name)) opts=\"\(options)\" ;;\n"
      }
      return """
        # bash completion for gitjournal
        _gitjournal() {
          local cur=${COMP_WORDS[COMP_CWORD]} opts=""
          if [ "$COMP_CWORD" -eq 1 ]; then
            COMPREPLY=($(compgen -W "\(names.joined(separator: " ")) --help --version" -- "$cur"))
            return
          fi
          case ${COMP_WORDS[1]} in
        \(cases)    help) opts="\(names.joined(separator: " ")) config format" ;;
          esac
          COMPREPLY=($(compgen -W "$opts today yesterday" -- "$cur"))
        }
        complete -o default -F _gitjournal gitjournal

        """
    case .zsh:
      var cases = ""
      for command in visible {
        let options = command.options.map { "'--\($0.name)[\(zshEscaped($0.abstract))]'" }.joined(separator: " ")
        cases += "    \(command.name)) _arguments \(options) '*:argument:_files' ;;\n"
      }
      let described = visible.map { "'\($0.name):\(zshEscaped($0.abstract))'" }.joined(separator: " ")
      return """
        #compdef gitjournal
        _gitjournal() {
          if (( CURRENT == 2 )); then
            local -a commands=(\(described) 'help:Show help for a command or topic')
            _describe 'command' commands
            return
          fi
          case ${words[2]} in
        \(cases)  esac
        }
        compdef _gitjournal gitjournal

        """
    case .fish:
      var lines = ["# fish completion for gitjournal", "complete -c gitjournal -f"]
      for command in visible {
        lines.append(
          "complete -c gitjournal -n '__fish_use_subcommand' -a \(command.name) -d '\(fishEscaped(command.abstract))'")
        for option in command.options {
          lines.append(
            "complete -c gitjournal -n '__fish_seen_subcommand_from \(command.name)' -l \(option.name) "
              + "-d '\(fishEscaped(option.abstract))'")
        }
      }
      lines.append(
        "complete -c gitjournal -n '__fish_seen_subcommand_from help' -a '\(names.joined(separator: " ")) config format'"
      )
      return lines.joined(separator: "\n") + "\n"
    }
  }

  private static func zshEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: ":", with: "\\:")
      .replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
  }

  private static func fishEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
  }
}
