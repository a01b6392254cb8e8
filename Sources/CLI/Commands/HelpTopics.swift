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
    Edit it with 'git config -f <file> <key> <value>' or by hand. Without it, gitjournal journals the
    repository that contains the current directory.

    journal.dir              where the day files go (default: ~/journal); a relative path is
                             taken from the config file's folder
    journal.author           an email whose commits count; repeat for several
                             (default: each repository's own user.email)
    journal.timezone         IANA time zone that decides a commit's day (default: the system's, TZ)
    journal.dayStart         when a journal day starts, HH:MM (default: 00:00)
    journal.merges           count merge commits, without line changes (default: false)
    journal.weekStart        the first day of a week for 'show --week': monday ... sunday, or mon ...
                             sun (default: monday, as ISO 8601 weeks)
    repo.<name>.path         a journaled repository; <name> is its project name in the journal
                             (case matters); a relative path is taken from the config file's folder
    repo.<name>.private      the model gets this project's counts, never its subjects (default: false);
                             it covers every worktree of the repository
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
    Section and key names are case-insensitive, as in git. An unknown section or key, a repository
    section without a path, or a value out of range is an error (with the closest key suggested);
    'gitjournal doctor' lists them all. The hook logs it and writes nothing, except for a problem in
    the narrative section: then it writes the journal without asking the model.

    Example:
      git config -f ~/.config/gitjournal/config journal.dayStart 04:00

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
      <!-- gitjournal:end checksum=... -->

      Your notes, anywhere outside the block.

    Everything outside the block is yours and kept byte for byte. The block is rewritten on every update;
    if you edit inside it, your text is moved just below the block on the next update, after a comment
    that says so. Subjects are escaped so that they cannot break the file. Files are replaced atomically
    under a lock, so concurrent commits never lose an update.

    """
}
