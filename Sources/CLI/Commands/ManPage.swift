import Support

/// `gitjournal help --man`: the manual page `gitjournal.1` in roff, written from the same specs and topics as the
/// help, so `man gitjournal` never says something `gitjournal help` does not. `install.sh` installs it.
enum ManPage {
  static func text(commands: [CommandSpec], topics: [(name: String, text: String)]) -> String {
    var lines = [
      ".TH GITJOURNAL 1 \"\" \"gitjournal \(escaped(Version.current))\" \"User Commands\"",
      ".SH NAME",
      "gitjournal \\- " + escaped(CLI.overview.abstract.replacingEvery("gitjournal: ", with: "")),
      ".SH SYNOPSIS",
      ".B gitjournal",
      "\\fIcommand\\fR [\\fIoptions\\fR]",
      ".br",
      ".B gitjournal",
      "\\-\\-help | \\-\\-version",
      ".SH COMMANDS",
    ]
    for command in commands where command.name != HookCommand.spec.name {
      lines += [".SS " + escaped("gitjournal " + command.usage), escaped(command.abstract)]
      if !command.discussion.isEmpty { lines += [".PP"] + block(command.discussion) }
      for option in command.options {
        let label =
          (option.short.map { "-\($0), " } ?? "") + "--\(option.name)"
          + (option.valueName.map { " <\($0)>" } ?? "")
        lines += [".TP", ".B " + escaped(label)]
        lines.append(escaped(option.abstract + (option.defaultValue.map { " (default: \($0))" } ?? "")))
      }
      if !command.examples.isEmpty {
        lines += [".PP", "Examples:", ".RS", ".nf"] + command.examples.map(escapedLine) + [".fi", ".RE"]
      }
    }
    for topic in topics {
      lines += [".SH " + escaped(topic.name.uppercased()), ".nf"]
      lines += topic.text.split(separator: "\n", omittingEmptySubsequences: false).map { escapedLine(String($0)) }
      lines.append(".fi")
    }
    lines += [
      ".SH EXIT STATUS",
      "0 success (always for the hook), 1 an error, 2 the journal was written but a repository was skipped,",
      "64 a wrong command line, 130 a rebuild stopped by Ctrl-C.",
      ".SH SEE ALSO",
      ".BR git (1),",
      ".BR git-config (1),",
      ".BR gitglossary (7)",
      "for pathspecs.",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The topics the manual holds after the commands, in this order.
  static var topics: [(name: String, text: String)] {
    [("configuration", HelpTopics.config), ("the journal file", HelpTopics.format)]
  }

  /// A paragraph: each line of the help's own text, escaped.
  private static func block(_ text: String) -> [String] {
    text.split(separator: "\n").map { escapedLine(String($0)) }
  }

  /// Text escaped for roff: backslashes and dashes.
  static func escaped(_ text: String) -> String {
    text.replacingEvery("\\", with: "\\e").replacingEvery("-", with: "\\-")
  }

  /// A line of text that roff must not read as a request (a leading `.` or `'`).
  static func escapedLine(_ text: String) -> String {
    let line = escaped(text)
    return line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
  }
}
