import Facts
import GitReader
import Journal
import Narrative
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What `gitjournal hook <name>` does inside git: refresh the affected days of the journal across all
/// configured repositories. It never fails the git command: problems go to the hook log and at most one
/// line to stderr, and the exit status is always 0.
struct HookRunner {
  let environment: Environment
  /// Run from the global hooks folder (`install --global`): a repository's first commit registers it.
  let registers: Bool

  /// `configPath`: the config file `install` recorded in the hook script; nil for a hook installed before it did
  /// so, which reads `$GITJOURNAL_CONFIG` or the default file. Either way the hook, and the narrator it starts,
  /// read that one file and do nothing without it: GUI clients run hooks without the shell's variables, and
  /// "the current repository with defaults" would journal a repository the config marks private, and send its
  /// subjects to the model.
  init(environment: Environment, configPath: String?, registers: Bool = false) {
    self.registers = registers
    var environment = environment
    environment.variables["GITJOURNAL_CONFIG"] = configPath ?? environment.configPath
    environment.variables[Environment.configRequiredVariable] = "1"
    self.environment = environment
  }

  /// A rebase rewrites commits with the committer time of the moment: commits committed this recently
  /// before the post-rewrite hook are taken to be the rebase's.
  static let rebaseLookback: Int64 = 60 * 60

  /// The longest a hook keeps a commit waiting. An ordinary hook takes milliseconds; the first after a large import
  /// may take seconds.
  static let deadlineSeconds = 120
  /// Seconds instead of `deadlineSeconds` (for the tests).
  static let deadlineVariable = "GITJOURNAL_HOOK_DEADLINE"

  /// Runs the hook; returns the line for stderr, if any.
  func run(_ hook: GitHook, arguments: [String]) async -> String? {
    let log = LogFile.hook(stateDirectory: environment.stateDirectory)
    // A damaged repository's read fails past the bound, and is skipped, instead of taking the machine's memory.
    MemoryBound.apply()
    // And a read that never ends does not keep the commit waiting: past the deadline the hook ends, with one line.
    let seconds = environment.variables[Self.deadlineVariable].flatMap { Int($0) } ?? Self.deadlineSeconds
    log.armDeadline(
      seconds: seconds,
      line: "\(hook.rawValue): gave up after \(seconds) s, still reading the repositories (a damaged or very large "
        + "one?); pages not written by then are as they were; 'gitjournal rebuild' catches up and names a repository "
        + "it cannot read",
      terminalLine: "gitjournal: gave up after \(seconds) s; see \(log.path)", now: environment.now())
    do {
      // A problem in the narrative section turns the model off (see Configuration.loadForHook); others throw.
      var (configuration, narrativeProblem) = try Configuration.loadForHook(environment)
      guard let repository = Repository.containing(environment.currentDirectory) else { return nil }
      guard let committing = try journaledPaths(repository, configuration: &configuration, log: log) else {
        return nil
      }
      guard
        let days = try affectedDays(hook, arguments: arguments, repository: repository, configuration: configuration)
      else { return nil }
      let report = try await Journaling(configuration: configuration, environment: environment).refresh(
        days: days, likelyMoved: committing)
      startNarratorIfNeeded(for: report, configuration: configuration)
      log.append(
        Self.carriedLines(report, hook: hook), now: environment.now())
      // Files of the journal folder that were refused (a record out of range, a symlinked page): one line each, in
      // the log only.
      log.append(
        RefusedInputs.take(inside: configuration.journalDirectory).map { "\(hook.rawValue): \($0)" },
        now: environment.now())
      var authorLine: String?
      if hook == .postCommit,
        let mismatch = await authorMismatch(repository: repository, configuration: configuration)
      {
        log.append(["\(hook.rawValue): \(mismatch)"], now: environment.now())
        authorLine = "gitjournal: journal.author matches none of the recent commits; see \(log.path)"
      }
      let problem = narrativeProblem.map { "\(hook.rawValue): \($0); no model request until it is fixed" }
      guard !report.skipped.isEmpty || problem != nil else { return authorLine }
      log.append(
        report.skipped.map { "\(hook.rawValue): \($0)" } + (problem.map { [$0] } ?? []), now: environment.now())
      if report.skipped.isEmpty {
        return "gitjournal: no sentence, the config's narrative section is wrong; see \(log.path)"
      }
      let count = report.skipped.count
      return "gitjournal: skipped \(count) \(count == 1 ? "repository" : "repositories"); see \(log.path)"
    } catch ConfigError.missing(let path) {
      // Quietly: a user who deleted the config to stop journaling wants no line on every commit.
      log.append(
        [
          "\(hook.rawValue): nothing done: the config file \(path) does not exist; run 'gitjournal install' in "
            + "this repository to record where it is now"
        ], now: environment.now())
      return nil
    } catch ConfigError.unreadable(let path, let reason) {
      log.append(
        ["\(hook.rawValue): nothing done: cannot read the config file \(path): \(reason)"], now: environment.now())
      return nil
    } catch let busy as FileLock.Busy {
      log.append(
        [
          "\(hook.rawValue): skipped: another gitjournal has held the journal lock \(busy.path) for more than "
            + "\(busy.seconds) seconds (stopped with Ctrl-Z, or hung?); the next commit or 'gitjournal rebuild' "
            + "catches up"
        ], now: environment.now())
      return nil
    } catch {
      log.append(["\(hook.rawValue): \(error)"], now: environment.now())
      return "gitjournal: journal not updated; see \(log.path)"
    }
  }

  /// What `AuthorCheck` says when the commit just made is not one of the configured authors': looked for only then,
  /// so a commit that counts costs one email compared.
  /// A check that found the authors' commits is not made again the same day for the same authors (a second identity
  /// used in some repositories would otherwise read 30 days of every repository at each of its commits): the day
  /// and the authors are kept in `author-check` in the state folder.
  func authorMismatch(repository: Repository, configuration: Configuration) async -> String? {
    guard !configuration.authors.isEmpty, let head = repository.headCommitID(),
      let email = try? repository.authorEmail(of: head),
      !configuration.authors.contains(where: { $0.lowercased() == email.lowercased() })
    else { return nil }
    let path = environment.stateDirectory + "/author-check"
    let today = configuration.calendar.day(containing: environment.now()).description
    let authors = configuration.authors.map { $0.lowercased() }.sorted()
    var isKnown = false
    StateFile.read(path) { record in
      isKnown =
        record.count == authors.count + 1 && record.text(0) == today
        && authors.indices.allSatisfy { record.text($0 + 1) == authors[$0] }
      return false
    }
    if isKnown { return nil }
    let journaling = Journaling(configuration: configuration, environment: environment)
    switch await AuthorCheck.check(configuration, journaling: journaling) {
    case .matched:
      try? StateFile.write([[today] + authors], to: path, isCache: true)
      return nil
    case .mismatch(let sentence): return sentence
    case .nobody: return nil
    }
  }

  /// One log line per project whose recorded commits were kept because its repository was not read now.
  static func carriedLines(_ report: Journaling.Report, hook: GitHook) -> [String] {
    report.carried.sorted { $0.key < $1.key }.flatMap { day, projects in
      projects.map { project in
        let reason =
          report.skipped.first { $0.path == project.path }.map { "its repository was skipped: \($0.problem)" }
          ?? "it is no longer journaled"
        return
          "\(hook.rawValue): \(day): kept the \(project.commitCount) recorded commits of \(project.name) (\(reason))"
      }
    }
  }

  /// Starts a detached `gitjournal narrate` for the written days that have commits but no sentence yet, or whose
  /// week or month page was written without one, unless the model is off or pausing after a failure. The commit
  /// never waits for the model.
  func startNarratorIfNeeded(for report: Journaling.Report, configuration: Configuration) {
    let settings = configuration.narrative
    guard settings.engine != .off else { return }
    // A running week's or month's page has no sentence while it runs (see `NarrateCommand`): only an ended one's
    // missing sentence, or the day's, starts a narrator.
    let today = configuration.calendar.day(containing: environment.now())
    let missing = report.written.filter { written in
      !written.facts.isEmpty
        && (written.sentence == nil
          || written.periods.contains { !$0.facts.isEmpty && $0.sentence == nil && $0.facts.period.last < today })
    }.map(\.facts.day)
    guard !missing.isEmpty else { return }
    let backoff = NarrativeEngines.backoff(settings: settings, environment: environment)
    guard backoff.current(now: environment.now()) == nil else { return }
    // The narrator waits until commits stop coming for a moment (`narrate --settle`): a burst gets one sentence.
    let settle = environment.variables[Self.settleVariable] ?? "2"
    DetachedProcess.spawn(
      executable: ExecutablePath.current,
      arguments: ["narrate", "--retry-after-pause", "--settle", settle] + missing.map(\.description),
      environment: environment.variables, excluding: Self.repositoryVariables)
  }

  /// Seconds without a commit before the hook's narrator asks the model (2 unless set: tests set less).
  static let settleVariable = "GITJOURNAL_NARRATE_SETTLE"

  /// What git exports to a hook about the committing repository (`git rev-parse --local-env-vars`): the
  /// narrator outlives the commit and reads every journaled repository, so it gets none of them.
  static let repositoryVariables: Set<String> = [
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
    "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE", "GIT_INDEX_FILE",
    "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX", "GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE",
    "GIT_COMMON_DIR", "GIT_EDITOR", "GIT_REFLOG_ACTION",
  ]

  /// The configured folders of the committing repository when it is journaled: configured (or, from the global
  /// hook, registered now, which adds it to `configuration`), and not the one that holds the journal folder, whose
  /// commits would otherwise write to the journal on every commit of the journal. Nil when it is not.
  func journaledPaths(_ repository: Repository, configuration: inout Configuration, log: LogFile) throws -> [String]? {
    let root = repository.root
    let mainRoot = repository.mainRoot
    if RegistrationCheck.holdsJournal(root: mainRoot, journal: configuration.journalDirectory, also: root) {
      return nil
    }
    let names = Names(repository, root: root)
    let configured = configuration.repositories.filter { !$0.isRetired && names.include($0) }
    if !configured.isEmpty { return configured.map(\.path) }
    guard registers, !repository.isBare,
      RegistrationCheck.refusal(root: mainRoot, configuration: configuration, automatic: true) == nil,
      !(configuration.repositories + configuration.excludedRepositories).contains(where: names.include),
      let entry = try RepositoryRegistry(environment: environment).registerAutomatically(root: mainRoot)
    else { return nil }
    configuration.repositories.append(entry)
    log.append(
      ["registered \(entry.name) (\(entry.path)) at its first commit under the global hook"], now: environment.now())
    return [entry.path]
  }

  /// The days to refresh, or nil when there is nothing to do: a rebase is still running (its post-rewrite
  /// refreshes once at the end), or an amend's post-rewrite (its post-commit already did).
  func affectedDays(_ hook: GitHook, arguments: [String], repository: Repository, configuration: Configuration) throws
    -> [Day]?
  {
    guard let head = repository.headCommitID() else { return nil }
    let calendar = configuration.calendar
    let headDay = calendar.day(containing: try repository.authorTime(of: head))

    switch hook {
    case .postCommit:
      let gitDirectory = repository.gitDirectory
      for folder in ["rebase-merge", "rebase-apply"]
      where FileManager.default.fileExists(atPath: gitDirectory + "/" + folder) {
        return nil
      }
      return [headDay]
    case .postRewrite:
      guard arguments.first == "rebase" else { return nil }
      let since = Int64(environment.now().timeIntervalSince1970) - Self.rebaseLookback
      var days: Set<Day> = [headDay]
      for time in try repository.authorTimes(committedSince: since, from: head) {
        days.insert(calendar.day(containing: time))
      }
      return days.sorted()
    }
  }

  /// The folders that name the committing repository: where it is, its common git directory, and the folder that
  /// common directory is the `.git` of (`include`: whether an entry is that repository or one it is a linked
  /// worktree of). Worked out once, not for every configured repository the hook compares
  /// (joining each one's path with "/.git" cost the hook a string a repository).
  private struct Names {
    let root: String
    let commonDirectory: String
    let worktreeOwner: Substring?

    init(_ repository: Repository, root: String) {
      self.root = root
      commonDirectory = repository.commonDirectory
      worktreeOwner = commonDirectory.hasSuffix("/.git") ? commonDirectory.dropLast(5) : nil
    }

    func include(_ entry: RepositoryEntry) -> Bool {
      entry.path == root || entry.path == commonDirectory || worktreeOwner.map { entry.path[...] == $0 } == true
    }
  }
}
