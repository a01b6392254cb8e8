/// The scripts `install --global` puts in its hooks folder: one for every hook git 2.39 knows (githooks(5)).
///
/// Once git's global `core.hooksPath` names that folder, git runs hooks from there only, never from a repository's
/// own `.git/hooks`. So each script first finds the hook git would have run without gitjournal: the one in the
/// folder `core.hooksPath` named before, when another tool had set it, else the repository's own, in its common
/// git dir (which its linked worktrees share). `post-commit` and `post-rewrite` run that hook with its arguments
/// and standard input, then `gitjournal hook`, and exit with that hook's status; every other script hands over to
/// the hook with `exec`, so arguments, standard input, exit status and even `$0` are exactly the hook's own.
enum GlobalHookScript {
  /// Identifies these scripts; followed by the hook's name.
  static let marker = "# gitjournal-global-hook "

  /// githooks(5) of git 2.39, in its order.
  static let hookNames = [
    "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit", "prepare-commit-msg",
    "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge", "pre-push", "pre-receive", "update",
    "proc-receive", "post-receive", "post-update", "reference-transaction", "push-to-checkout", "pre-auto-gc",
    "post-rewrite", "sendemail-validate", "fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist",
    "p4-post-changelist", "p4-pre-submit", "post-index-change",
  ]

  /// The script for `name`. `previous`: the hooks folder the global `core.hooksPath` named before (`~`
  /// expanded, a relative one kept relative, as git takes it from where the hook runs), or nil.
  static func render(name: String, executable: String, configPath: String, previous: String?) -> String {
    let quoted = HookScript.shellQuoted
    let origin =
      previous.map { "\($0)/\(name) (the hooks folder core.hooksPath named before)" }
      ?? "the repository's own .git/hooks/\(name)"
    var text = """
      #!/bin/sh
      \(marker)\(name)
      # Put here by 'gitjournal install --global', which pointed git's global core.hooksPath at this folder. Git
      # then runs hooks from this folder only, so this one runs the hook git ran before: \(origin),
      # with its arguments, standard input and exit status. 'gitjournal uninstall --global' removes this folder
      # and leaves your git config as it was.
      previous=\(quoted(previous ?? ""))
      if [ -n "$previous" ]; then
        hook=$previous/\(name)
      else
        # The common git dir holds the repository's own hooks, for its linked worktrees too.
        dir=${GIT_COMMON_DIR:-}
        if [ -z "$dir" ]; then
          dir=${GIT_DIR:-}
          if [ -z "$dir" ]; then
            if [ -d .git ]; then dir=.git; else dir=$(git rev-parse --git-dir 2>/dev/null); fi
          fi
          if [ -n "$dir" ] && [ -f "$dir/commondir" ] && IFS= read -r common <"$dir/commondir"; then
            case $common in /*) dir=$common ;; ?*) dir=$dir/$common ;; esac
          fi
        fi
        hook=${dir:+$dir/hooks/\(name)}
      fi
      if [ -n "$hook" ] && [ "$hook" -ef "$0" ]; then hook=; fi

      """
    switch name {
    case GitHook.postCommit.rawValue, GitHook.postRewrite.rawValue:
      text += """
        status=0
        if [ -n "$hook" ] && [ -x "$hook" ]; then
          # A repository's own gitjournal hook would journal the commit a second time: the hook it chained runs
          # instead.
          line=
          if [ -r "$hook" ]; then { IFS= read -r line && IFS= read -r line; } <"$hook"; fi
          case $line in "\(HookScript.marker)"*) hook=$hook\(HookScript.chainedSuffix) ;; esac
          if [ -x "$hook" ]; then "$hook" "$@" || status=$?; fi
        fi
        gitjournal=\(quoted(executable))
        if [ ! -x "$gitjournal" ]; then
          gitjournal=$(command -v gitjournal 2>/dev/null) || exit "$status"
        fi
        # The config file install used: GUI clients run hooks without your shell's variables.
        "$gitjournal" hook \(name) --global --config \(quoted(configPath)) "$@" </dev/null
        exit "$status"

        """
    case "push-to-checkout":
      text += """
        if [ -n "$hook" ] && [ -x "$hook" ]; then exec "$hook" "$@"; fi
        # With no push-to-checkout hook git updates the working tree itself (receive.denyCurrentBranch =
        # updateInstead), but this script is one, so it does what git does then.
        GIT_DIR=$(cd "${GIT_DIR:-.}" && pwd) && export GIT_DIR && cd "$GIT_WORK_TREE" || exit 1
        fail() { echo "$1" >&2; exit 1; }
        git update-index -q --ignore-submodules --refresh || fail "Up-to-date check failed"
        git diff-files --quiet --ignore-submodules -- || fail "Working directory has unstaged changes"
        head=HEAD
        git rev-parse -q --verify HEAD >/dev/null || head=$(git hash-object -t tree /dev/null)
        git diff-index --quiet --cached --ignore-submodules "$head" -- || fail "Working directory has staged changes"
        git read-tree -u -m "$1" || fail "Could not update working tree to new HEAD"

        """
    default:
      text += """
        if [ -n "$hook" ] && [ -x "$hook" ]; then exec "$hook" "$@"; fi
        exit 0

        """
    }
    return text
  }

  /// True when `text` is one of these scripts.
  static func isGlobalHook(_ text: String) -> Bool {
    text.split(maxSplits: 2, whereSeparator: \.isNewline).dropFirst().first?.hasPrefix(marker) == true
  }
}
