import Support

/// The completion scripts `gitjournal completions` prints and `install.sh` installs, written from the command
/// specs the help and the parser use: a command, action or option added there completes without another edit.
struct CompletionScript {
  /// The commands a user types (not `hook`), in help order.
  let commands: [CommandSpec]
  /// `help`'s words: every command and topic.
  let helpWords: [String]
  let configKeys: [String]

  init(commands: [CommandSpec], topics: [String], configKeys: [String]) {
    let visible = commands.filter { $0.name != HookCommand.spec.name }
    self.commands = visible
    helpWords = visible.map(\.name) + topics.filter { topic in !visible.contains { $0.name == topic } }
    self.configKeys = configKeys
  }

  /// The words to offer for `kind` in bash; empty for kinds that complete paths or nothing.
  private func words(_ kind: ArgumentKind) -> [String] {
    switch kind {
    case .days: return ["today", "yesterday"]
    case .words(let words): return words
    case .configKeys: return configKeys
    case .none, .directories, .files, .repositories: return []
    }
  }

  // MARK: bash

  var bash: String {
    var cases = ""
    for command in commands {
      let valueOptions = command.options.filter { $0.valueName != nil }
      var body = ""
      if !valueOptions.isEmpty {
        body += "      valued=\"\(valueOptions.map { "--" + $0.name }.joined(separator: " "))\"\n"
        body += "      case $prev in\n"
        for option in valueOptions {
          body += "        --\(option.name)) _gitjournal_offer \(bashKind(option.values)); return ;;\n"
        }
        body += "      esac\n"
      }
      body += "      options=\"\(command.options.map { "--" + $0.name }.joined(separator: " "))\"\n"
      if command.actions.isEmpty {
        body += "      kind=\"\(bashKind(command.arguments))\"\n"
      } else {
        body += "      actions=\"\(command.actions.map(\.name).joined(separator: " "))\"\n"
        body += "      case $(_gitjournal_action \"$valued\") in\n"
        for action in command.actions {
          body += "        \(action.name)) kind=\"\(bashKind(action.arguments))\" ;;\n"
        }
        body += "      esac\n"
      }
      cases += "    \(command.name))\n\(body)      ;;\n"
    }
    let top = commands.map(\.name) + ["help", "--help", "--version"]
    return """
      # bash completion for gitjournal
      # The first word that is not an option (or an option's value) after the command: its action.
      _gitjournal_action() {
        local i=2 word
        while [ "$i" -lt "$COMP_CWORD" ]; do
          word=${COMP_WORDS[i]}
          case " $1 " in *" $word "*) i=$((i + 2)); continue ;; esac
          case $word in -*) ;; *) printf '%s' "$word"; return ;; esac
          i=$((i + 1))
        done
      }
      # Fills COMPREPLY for one kind of word: days, directories, files, repositories, keys, or a list of words.
      _gitjournal_offer() {
        local cur=${COMP_WORDS[COMP_CWORD]} kind=$1
        shift
        case $kind in
          none) COMPREPLY=() ;;
          directories) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
          files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
          repositories)
            COMPREPLY=($(compgen -W "$(gitjournal config list --names 2>/dev/null)" -- "$cur")) ;;
          *) COMPREPLY=($(compgen -W "$*" -- "$cur")) ;;
        esac
      }
      _gitjournal() {
        local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
        local valued="" options="" actions="" kind=none
        COMPREPLY=()
        if [ "$COMP_CWORD" -eq 1 ]; then
          COMPREPLY=($(compgen -W "\(top.joined(separator: " "))" -- "$cur"))
          return
        fi
        case ${COMP_WORDS[1]} in
      \(cases)    help)
            if [ "$COMP_CWORD" -eq 2 ]; then _gitjournal_offer words \(helpWords.joined(separator: " ")); fi
            return ;;
          *) return ;;
        esac
        if [[ $cur == -* ]]; then
          _gitjournal_offer words $options
        elif [ -n "$actions" ] && [ -z "$(_gitjournal_action "$valued")" ]; then
          _gitjournal_offer words $actions
        else
          _gitjournal_offer $kind
        fi
      }
      complete -F _gitjournal gitjournal

      """
  }

  /// The `_gitjournal_offer` arguments for `kind`.
  private func bashKind(_ kind: ArgumentKind) -> String {
    switch kind {
    case .none: return "none"
    case .directories: return "directories"
    case .files: return "files"
    case .repositories: return "repositories"
    case .days, .words, .configKeys: return (["words"] + words(kind)).joined(separator: " ")
    }
  }

  // MARK: zsh

  var zsh: String {
    let described = commands.map { "'\($0.name):\(Self.zshEscaped($0.abstract))'" }
    let helpDescribed = described + ["'help:Show help for a command or topic'"]
    var cases = ""
    for command in commands {
      var specs = command.options.map { option -> String in
        let label = "--\(option.name)[\(Self.zshEscaped(option.abstract))]"
        guard let valueName = option.valueName else { return "'\(label)'" }
        return "'\(label):\(valueName):\(zshAction(option.values))'"
      }
      if command.actions.isEmpty {
        if command.arguments != .none { specs.append("'*:argument:\(zshAction(command.arguments))'") }
      } else {
        let names = command.actions.map(\.name).joined(separator: " ")
        specs.append("'1:action:(\(names))'")
        specs.append("'*::argument:_gitjournal_\(command.name)_arguments'")
      }
      cases += "    \(command.name)) _arguments -S \(specs.joined(separator: " ")) ;;\n"
    }
    var actionFunctions = ""
    for command in commands where !command.actions.isEmpty {
      var inner = ""
      for action in command.actions where action.arguments != .none {
        inner += "    \(action.name)) \(zshAction(action.arguments)) ;;\n"
      }
      actionFunctions += """
        _gitjournal_\(command.name)_arguments() {
          case ${words[1]} in
        \(inner)  esac
        }

        """
    }
    return """
      #compdef gitjournal
      _gitjournal_repositories() {
        local -a names=(${(f)"$(gitjournal config list --names 2>/dev/null)"})
        compadd -a names
      }
      \(actionFunctions)_gitjournal() {
        if (( CURRENT == 2 )); then
          local -a commands=(\(helpDescribed.joined(separator: " ")))
          _describe 'command' commands
          _arguments '(- *)--help[Show help]' '(- *)--version[Print the version]'
          return
        fi
        shift words
        (( CURRENT-- ))
        case ${words[1]} in
      \(cases)    help) _arguments '1:topic:(\(helpWords.joined(separator: " ")))' ;;
        esac
      }
      if [ "$funcstack[1]" = "_gitjournal" ]; then
        _gitjournal "$@"
      else
        compdef _gitjournal gitjournal
      fi

      """
  }

  private func zshAction(_ kind: ArgumentKind) -> String {
    switch kind {
    case .none: return " "
    case .directories: return "_files -/"
    case .files: return "_files"
    case .repositories: return "_gitjournal_repositories"
    case .days, .words, .configKeys: return "(\(words(kind).joined(separator: " ")))"
    }
  }

  private static func zshEscaped(_ text: String) -> String {
    text.replacingEvery("'", with: "'\\''").replacingEvery(":", with: "\\:")
      .replacingEvery("[", with: "\\[").replacingEvery("]", with: "\\]")
  }

  // MARK: fish

  var fish: String {
    var lines = [
      "# fish completion for gitjournal",
      "function __gitjournal_repositories",
      "    gitjournal config list --names 2>/dev/null",
      "end",
      "complete -c gitjournal -n '__fish_use_subcommand' -l help -s h -d 'Show help'",
      "complete -c gitjournal -n '__fish_use_subcommand' -l version -s v -d 'Print the version'",
    ]
    for command in commands {
      let seen = "__fish_seen_subcommand_from \(command.name)"
      lines.append(
        "complete -c gitjournal -f -n '__fish_use_subcommand' -a \(command.name) -d '\(Self.fishEscaped(command.abstract))'"
      )
      for option in command.options {
        var line = "complete -c gitjournal -n '\(seen)' -l \(option.name)"
        if let short = option.short { line += " -s \(short)" }
        if option.valueName != nil { line += " -r" + fishArguments(option.values) }
        lines.append(line + " -d '\(Self.fishEscaped(option.abstract))'")
      }
      if command.actions.isEmpty {
        lines.append("complete -c gitjournal -n '\(seen)'" + fishArguments(command.arguments))
      } else {
        let names = command.actions.map(\.name).joined(separator: " ")
        lines.append(
          "complete -c gitjournal -n '\(seen); and not __fish_seen_subcommand_from \(names)' -f -a '\(names)'")
        for action in command.actions {
          lines.append(
            "complete -c gitjournal -n '\(seen); and __fish_seen_subcommand_from \(action.name)'"
              + fishArguments(action.arguments))
        }
      }
    }
    lines.append(
      "complete -c gitjournal -n '__fish_seen_subcommand_from help' -f -a '\(helpWords.joined(separator: " "))'")
    return lines.joined(separator: "\n") + "\n"
  }

  /// fish's flags for a kind: `-F` for files, the folder completer for directories, `-f` with words otherwise.
  private func fishArguments(_ kind: ArgumentKind) -> String {
    switch kind {
    case .none: return " -f"
    case .files: return " -F"
    case .directories: return " -f -a '(__fish_complete_directories)'"
    case .repositories: return " -f -a '(__gitjournal_repositories)'"
    case .days, .words, .configKeys: return " -f -a '\(words(kind).joined(separator: " "))'"
    }
  }

  private static func fishEscaped(_ text: String) -> String {
    text.replacingEvery("\\", with: "\\\\").replacingEvery("'", with: "\\'")
  }
}
