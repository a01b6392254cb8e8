import Facts
import Foundation
import GitReader
import Journal
import Narrative
import Support

/// The shell script gitjournal installs as a git hook.
///
/// The text is `hooks/gitjournal-hook.sh.template` verbatim (a test keeps the two identical). It runs a hook it
/// chained first and keeps that hook's exit status; calls gitjournal by the absolute path recorded at install
/// time, since GUI clients run hooks without the user's PATH, and falls back to PATH; and exits quietly when
/// gitjournal is gone.
enum HookScript {
  /// Identifies gitjournal's hooks; followed by the hook's name.
  static let marker = "# gitjournal-hook "
  /// Suffix of a foreign hook that gitjournal moved aside and runs first.
  static let chainedSuffix = ".gitjournal-chained"

  static let template = """
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

  /// The script for `hook`, calling the gitjournal binary at `executable`.
  static func render(hook: GitHook, executable: String) -> String {
    template.replacingOccurrences(of: "@HOOK@", with: hook.rawValue)
      .replacingOccurrences(of: "@GITJOURNAL@", with: shellQuoted(executable))
  }

  /// Single quotes make every character literal, `$`, backticks and newlines included; a single quote
  /// itself becomes '\\''.
  static func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// True when `text` is a hook gitjournal wrote.
  static func isGitJournalHook(_ text: String) -> Bool {
    text.split(separator: "\n", maxSplits: 3).contains { $0.hasPrefix(marker) }
  }
}
