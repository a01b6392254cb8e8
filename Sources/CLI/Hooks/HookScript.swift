import Facts
import GitReader
import Journal
import Narrative
import Support

/// The shell script gitjournal installs as a git hook.
///
/// The text is `hooks/gitjournal-hook.sh.template` verbatim (a test keeps the two identical). It runs a hook it
/// chained first and keeps that hook's exit status; calls gitjournal by the absolute path recorded at install
/// time, since GUI clients run hooks without the user's PATH, and falls back to PATH; passes the config file
/// recorded at install time, since they run hooks without the user's variables too; and exits quietly when
/// gitjournal is gone. Its last line is a checksum of the rest, so that `install` and `uninstall` tell a script
/// gitjournal wrote, whatever its version, binary or config, from one the user edited, which is theirs.
enum HookScript {
  /// Identifies gitjournal's hooks, edited or not; followed by the hook's name.
  static let marker = "# gitjournal-hook "
  /// Starts the last line; followed by `checksum(of:)` of everything before that line.
  static let checksumPrefix = "# gitjournal-checksum "
  /// Suffix of a foreign hook that gitjournal moved aside and runs first.
  static let chainedSuffix = ".gitjournal-chained"

  static let template = """
    #!/bin/sh
    # gitjournal-hook @HOOK@
    # Keeps your gitjournal journal up to date. Added by 'gitjournal install'; 'gitjournal uninstall'
    # removes it and puts back any hook it chained. It never fails or blocks the git command it follows.
    # Edited by hand, it is yours: 'gitjournal install' keeps it and runs it first, 'gitjournal uninstall'
    # leaves it or puts it back (the checksum on the last line tells gitjournal's text from yours).
    status=0
    if [ -x "$0.gitjournal-chained" ]; then
      "$0.gitjournal-chained" "$@" || status=$?
    fi
    gitjournal=@GITJOURNAL@
    if [ ! -x "$gitjournal" ]; then
      gitjournal=$(command -v gitjournal 2>/dev/null) || exit "$status"
    fi
    # The config file install used: GUI clients run hooks without your shell's variables.
    "$gitjournal" hook @HOOK@ --config @CONFIG@ "$@" </dev/null
    exit "$status"
    # gitjournal-checksum @CHECKSUM@

    """

  /// The script gitjournal 0.1.0 installed, before scripts recorded the config file and carried a checksum. Such
  /// a script, unedited, is still gitjournal's to replace.
  static let templateOf010 = """
    #!/bin/sh
    # gitjournal-hook @HOOK@
    # Keeps your gitjournal journal up to date. Added by 'gitjournal install'; 'gitjournal uninstall'
    # removes it and puts back any hook it chained. It never fails or blocks the git command it follows.
    status=0
    if [ -x "$0.gitjournal-chained" ]; then
      "$0.gitjournal-chained" "$@" || status=$?
    fi
    gitjournal=@GITJOURNAL@
    if [ ! -x "$gitjournal" ]; then
      gitjournal=$(command -v gitjournal 2>/dev/null) || exit "$status"
    fi
    "$gitjournal" hook @HOOK@ "$@" </dev/null
    exit "$status"

    """

  /// The script for `hook`, calling the gitjournal binary at `executable` with the config file at `configPath`.
  static func render(hook: GitHook, executable: String, configPath: String) -> String {
    let body = filled(
      String(template.dropLast(checksumPrefix.count + "@CHECKSUM@\n".count)),
      with: ["HOOK": hook.rawValue, "GITJOURNAL": shellQuoted(executable), "CONFIG": shellQuoted(configPath)])
    return body + checksumPrefix + checksum(of: body) + "\n"
  }

  /// `text` with each `@NAME@` in `values` replaced in one pass, so that a path containing `@CONFIG@` stays as
  /// it is.
  private static func filled(_ text: String, with values: [String: String]) -> String {
    var result = ""
    var rest = Substring(text)
    while let start = rest.firstIndex(of: "@") {
      result += rest[..<start]
      let name = rest[rest.index(after: start)...]
      if let end = name.firstIndex(of: "@"), let value = values[String(name[..<end])] {
        result += value
        rest = name[name.index(after: end)...]
      } else {
        result += "@"
        rest = name
      }
    }
    return result + rest
  }

  /// Single quotes make every character literal, `$`, backticks and newlines included; a single quote
  /// itself becomes '\\''.
  static func shellQuoted(_ text: String) -> String {
    "'" + text.replacingEvery("'", with: "'\\''") + "'"
  }

  /// True when `text` is a hook gitjournal wrote, edited since or not.
  static func isGitJournalHook(_ text: String) -> Bool {
    text.split(maxSplits: 3, whereSeparator: \.isNewline).contains { $0.hasPrefix(marker) }
  }

  /// True when `text` is exactly a `hook` script gitjournal wrote: any version's, for any binary and config.
  static func isUnedited(_ text: String, hook: GitHook) -> Bool {
    if isUneditedScriptOf010(text, hook: hook) { return true }
    let bytes = Array(text.utf8)
    guard bytes.last == UInt8(ascii: "\n"),
      let lineStart = bytes.dropLast().lastIndex(of: UInt8(ascii: "\n")).map({ $0 + 1 })
    else { return false }
    let head = String(decoding: bytes[..<lineStart], as: UTF8.self)
    let last = String(decoding: bytes[lineStart..<(bytes.count - 1)], as: UTF8.self)
    return last == checksumPrefix + checksum(of: head) && head.contains(text: "\n" + marker + hook.rawValue + "\n")
  }

  /// The same check as the journal block's: the first 12 hex digits of git's blob id.
  static func checksum(of text: String) -> String {
    String(ContentHash.hex(of: text).prefix(12))
  }

  /// Whether `text` is `templateOf010` for `hook` with some binary's path, byte for byte.
  private static func isUneditedScriptOf010(_ text: String, hook: GitHook) -> Bool {
    let rendered = templateOf010.replacingEvery("@HOOK@", with: hook.rawValue)
    guard let placeholder = rendered.firstOccurrence(of: "@GITJOURNAL@") else { return false }
    let before = Array(rendered[..<placeholder.lowerBound].utf8)
    let after = Array(rendered[placeholder.upperBound...].utf8)
    let bytes = Array(text.utf8)
    guard bytes.count >= before.count + after.count + 2, bytes.starts(with: before),
      bytes.reversed().starts(with: after.reversed())
    else { return false }
    let quoted = String(decoding: bytes[before.count..<(bytes.count - after.count)], as: UTF8.self)
    guard quoted.hasPrefix("'"), quoted.hasSuffix("'") else { return false }
    // Exactly what `shellQuoted` makes of some path, and nothing appended to it.
    let path = String(quoted.dropFirst().dropLast()).replacingEvery("'\\''", with: "'")
    return shellQuoted(path) == quoted
  }
}
