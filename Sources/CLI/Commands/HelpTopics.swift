import Facts
import GitReader
import Journal
import Narrative
import Support

/// `gitjournal help config` and `gitjournal help format`: reference text that is not about one command.
enum HelpTopics {
  static let all: [String: String] = ["config": config, "format": format]

  static let config = """
    gitjournal's config is one file in git-config syntax:
      $GITJOURNAL_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/gitjournal/config
    Without it, gitjournal journals the repository that contains the current directory. Change it with
      gitjournal config set <key> <value>     (add <key> <value> for one more value of a repeatable key)
      gitjournal config get <key>
      gitjournal config unset <key> [<value>]
      gitjournal config list
    which check each change as gitjournal reads the file (a change it would reject is refused, the file
    untouched) and keep its comments and layout; or with 'git config -f <file>', or by hand.

    journal.dir              where the day files go (default: ~/journal); a relative path is
                             taken from the config file's folder
    journal.author           an email whose commits count; repeat for several
                             (default: each repository's own user.email)
    journal.timezone         IANA time zone that decides a commit's day (default: the system's, TZ)
    journal.dayStart         when a journal day starts, HH:MM (default: 00:00)
    journal.merges           count merge commits, without line changes (default: false)
    journal.weekStart        the first day of a week for 'show --week' and the weekly page: monday ...
                             sunday, or mon ... sun (default: monday, as ISO 8601 weeks)
    journal.links            end each day's block with links to the previous and next day that have
                             a file, and its week (default: true)
    journal.weekly           write a page per week, YYYY-Www.md (default: true)
    journal.monthly          write a page per month, YYYY-MM.md (default: true)
    journal.host             this machine's name in the journal's records, letters, digits, - _ .
                             (default: the host name); give each machine its own
    journal.shareFacts       keep this machine's day records in the journal folder, where the
                             other machines that share it read them (default: true); false keeps
                             them in the state folder (one machine only)
    journal.excludePaths     files left out of files-changed and line counts, as git's
                             ':(exclude)<pattern>': *.lock (any depth), package-lock.json (the
                             top-level one), dist/ or dist/** (a folder); repeat for several; the
                             commit still counts
    journal.ignoreAuthors    with --all-authors, leave out these authors: an email or a glob such as
                             *[bot]@users.noreply.github.com; repeat for several
    repo.<name>.path         a journaled repository; <name> is its project name in the journal
                             (case matters); a relative path is taken from the config file's folder
    repo.<name>.private      the model gets this project's counts, never its subjects (default: false);
                             it covers every worktree of the repository
    repo.<name>.exclude      true: never journal this repository, nor register it again
    journal.include          with the global hook ('install --global'), a repository's first commit
                             registers it when a pattern matches it (default: every repository);
                             repeat for several
    journal.exclude          a repository no hook, install, 'repos add' or 'repos scan' registers;
                             repeat for several
    repo.<name>.excludePaths more files left out of this repository's counts, as journal.excludePaths
    narrative.engine         ollama, openai (any OpenAI-compatible server) or off (default: ollama)
    narrative.url            the model server, port 1 to 65535 (default: $OLLAMA_HOST or
                             http://127.0.0.1:11434 for ollama, http://127.0.0.1:8080 for openai)
    narrative.model          the model to ask (default: gemma3:4b)
    narrative.temperature    sampling temperature, 0 to 2 (default: 0.2)
    narrative.healthTimeout  seconds for the health check, 0.1 to 60 (default: 2)
    narrative.timeout        seconds for one sentence, model loading included, 1 to 3600 (default: 90)
    narrative.retryDelay     seconds without any request after a failure, 1 to 86400 (default: 60)
    narrative.allowRemote    allow a model server that is not on this machine (default: false)

    Durations take seconds (90, 90s), minutes (2m) or milliseconds (500ms).
    Patterns: a path from / or ~/ matches a repository's folder or a folder above it (~/code covers
    every repository under it); a name without '/' matches any folder on its path (*-scratch); '*'
    and '?' stay within one folder name, '**' spans several.
    Section and key names are case-insensitive, as in git. An unknown section or key, a repository
    section without a path, or a value out of range is an error (with the closest key suggested);
    'gitjournal doctor' lists them all. The hook logs it and writes nothing, except for a problem in
    the narrative section: then it writes the journal without asking the model.

    Example:
      gitjournal config set journal.dayStart 04:00

    """

  static let format = """
    Each day is <journal.dir>/YYYY-MM-DD.md:

      ---                        front matter: date, commits, projects, insertions, deletions
      date: 2026-11-30           (gitjournal updates these five keys; keys you add are kept)
      ...
      ---

      # Monday, 30 November 2026 the title, written once when the file is created

      <!-- gitjournal:begin ... -->
      The model's sentence, when there is one.

      3 commits across 2 projects, +128 -10

      ## notes-app
      - 09:12 Fix sync conflict (`a1b2c3d`, +120 -8)
      - 17:40 Add export (`b2c3d4e` on feature/export, +6 -1)

      ← [[2026-11-27]] · [[2026-W49]] · [[2026-12-02]] →
      <!-- gitjournal:end checksum=... -->

      Your notes, anywhere outside the block.

    Everything outside the block is yours and kept byte for byte. The block is rewritten on every update;
    if you edit inside it, your text is moved just below the block on the next update, after a comment
    that says so. Subjects are escaped so that they cannot break the file. Files are replaced atomically
    under a lock, so concurrent commits never lose an update.

    A commit made on a local branch other than the repository's default one names it ("on feature/export";
    'show --json': "branch", null when none). The hook names the branch checked out: nothing on the
    default branch or a detached HEAD. rebuild and show name the branch whose first-parent line reaches
    the commit in the fewest steps (ties: the name that sorts first), and nothing for a commit on the
    default branch's first-parent line or whose branch was deleted; a name once recorded is kept. The
    default branch is the one origin/HEAD names, else init.defaultBranch, main or master when it is a
    local branch, else the only branch. Names are escaped like subjects and cut after 60 characters.

    The last line of the block links the previous and next day that have a file and the day's week
    (journal.links = false leaves it out). A new day file updates that line in its neighbours, and only
    there; a neighbour whose block you edited keeps its old links until it is written again.

    Each week with a day file also gets <journal.dir>/YYYY-Www.md (ISO 8601 week-numbering year: the week
    of 2026-12-31 is 2026-W53), and each month YYYY-MM.md, with the same conventions: front matter (week
    or month, commits, projects, activeDays, insertions, deletions), a managed block, your text kept. A
    week's block: the model's sentence about the week (when there is one), the totals line, per project
    its commits, active days and lines, each day with commits linked to its file, the busiest day, the
    days without commits, and links to the previous and next week and to its month. A month's: its
    sentence, the totals, per project, per week (its days in that month), the busiest week, and links to
    the neighbouring months. They are computed from the day records, refreshed when a commit changes a
    day of theirs and by rebuild for the days it writes. journal.weekly = false and journal.monthly =
    false turn them off.

    A week's or a month's sentence is asked for after the day's, with the period's own numbers (commits,
    days with commits, projects, some subjects), and guarded like the day's: it may state only numbers and
    names those facts contain. It stays only while the period's facts are those it was written for.

    """
}
