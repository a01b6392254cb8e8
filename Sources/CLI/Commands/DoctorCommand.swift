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

/// `gitjournal doctor`: checks everything gitjournal depends on and says what to fix.
struct DoctorCommand: Command {
  static let spec = CommandSpec(
    name: "doctor", abstract: "Check the config, repositories, hooks, journal folder and model server.",
    usage: "doctor",
    discussion: "Exits 1 when something needs fixing; warnings alone (say, no model server) exit 0.",
    examples: ["gitjournal doctor"])

  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.isEmpty else { throw UsageError(message: "doctor takes no arguments", spec: Self.spec) }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let environment = context.environment
    let style = TerminalStyle(output: context.standardOutput, environment: environment)
    var findings = (problems: 0, warnings: 0)
    let out = context.standardOutput
    func ok(_ text: String) { out.line(style.green("✓") + " " + text) }
    func warn(_ text: String) {
      findings.warnings += 1
      out.line(style.yellow("!") + " " + text)
    }
    func problem(_ text: String) {
      findings.problems += 1
      out.line(style.red("✗") + " " + text)
    }

    let configuration: Configuration
    let configProblems: [ConfigError]
    do {
      (configuration, configProblems) = try Configuration.read(environment)
    } catch {
      problem("config: \(error)")
      out.line(style.bold("1 problem needs fixing."))
      return ExitStatus.failure
    }
    // Every problem, not just the first; the checks below go on with what could be read.
    for configProblem in configProblems { problem("config: \(configProblem)") }
    if configuration.hasConfigFile {
      if configProblems.isEmpty { ok("config \(configuration.configPath)") }
    } else {
      warn("no config file at \(configuration.configPath): using the repository you are in; run 'gitjournal install'")
    }

    let global = GlobalHookInstaller(environment: environment, executable: "", configPath: "")
    let globalRecord = global.record()
    if let record = globalRecord {
      let effective = GlobalGitConfig(environment: environment).hooksPath()
      let first = record.previous.map { "those of \($0)" } ?? "each repository's own .git/hooks"
      if effective == global.hooksFolder {
        ok(
          "global hook: core.hooksPath is \(global.hooksFolder) (included from \(record.configFile)); it runs \(first) first"
        )
      } else {
        problem(
          "global hook: installed in \(global.hooksFolder), but git's core.hooksPath is \(effective ?? "unset"), set "
            + "after gitjournal's include in \(record.configFile): remove that setting or run 'gitjournal install --global'"
        )
      }
    }
    let active = configuration.repositories.filter { !$0.isRetired }.map(\.path)
    let uncovered = Dictionary(
      (globalRecord == nil ? [] : global.uncoveredLines(active)).map { ($0.path, $0.line) },
      uniquingKeysWith: { a, _ in a })

    if configuration.repositories.isEmpty && globalRecord == nil {
      problem("no repositories to journal: run 'gitjournal install' in one")
    }
    for entry in configuration.repositories {
      if let retiredAt = entry.retiredAt {
        // Information, not a problem: the repository is out of the journal's future, not of its past.
        ok(
          "\(entry.name) (\(entry.path)): retired \(RetirementTime.format(retiredAt)); the journal keeps its "
            + "commits until then ('gitjournal repos remove --forget \(entry.name)' erases them)")
        continue
      }
      let health = RepositoryHealth(path: entry.path)
      if case .problem(let found) = health {
        problem("\(entry.name) (\(entry.path)): \(found.summary); the journal keeps the commits it recorded from it")
        continue
      }
      if RegistrationCheck.holdsJournal(root: entry.path, journal: configuration.journalDirectory) {
        warn(
          "\(entry.name) (\(entry.path)) holds the journal folder: the hook ignores its commits, so that committing the "
            + "journal does not write to it")
        continue
      }
      if let line = uncovered[entry.path] {
        warn(line)
        continue
      }
      // A repository with no commits yet is said so as information: it is readable, with nothing to journal.
      let readable = "\(entry.name) (\(entry.path)): readable" + (health == .noCommitsYet ? ", no commits yet" : "")
      switch Self.hookState(of: entry.path, home: environment.home, globalFolder: global.hooksFolder) {
      case .installed(let how): ok("\(readable), hooked \(how)")
      case .missing(let folder):
        warn(
          "\(readable)\(health == .noCommitsYet ? "," : "") but not hooked in \(folder); run 'gitjournal install \(entry.path)'"
        )
      case .unavailable(let reason): warn("\(readable); \(reason)")
      }
    }

    checkJournalFolder(configuration.journalDirectory, ok: ok, problem: problem)
    let journaling = Journaling(configuration: configuration, environment: environment)
    if let mismatch = await AuthorCheck.mismatch(configuration, journaling: journaling) { problem(mismatch) }
    let store = journaling.store
    showMachines(store, configuration, ok: ok)
    showConflictCopies(store, ok: ok, warn: warn)
    if configProblems.contains(where: { $0.section == "narrative" }) {
      warn("model: not checked until the narrative section of the config is fixed; the hook asks no model meanwhile")
    } else {
      await checkModel(configuration.narrative.bounded, environment: environment, ok: ok, warn: warn)
    }
    showRecentLog(LogFile.hook(stateDirectory: environment.stateDirectory), title: "hook", style: style, out: out)
    showRecentLog(LogFile.narrative(stateDirectory: environment.stateDirectory), title: "model", style: style, out: out)

    if findings.problems > 0 {
      out.line(style.bold("\(findings.problems) \(findings.problems == 1 ? "problem needs" : "problems need") fixing."))
      return ExitStatus.failure
    }
    out.line(
      style.bold(
        findings.warnings == 0
          ? "All good." : "Working, with \(findings.warnings) \(findings.warnings == 1 ? "warning" : "warnings")."))
    return ExitStatus.success
  }

  enum HookState {
    case installed(String)
    case missing(folder: String)
    case unavailable(String)
  }

  /// Whether gitjournal's hooks run for the repository at `path` (also what `repos` says of it).
  static func hookState(of path: String, home: String, globalFolder: String) -> HookState {
    let folder: HookInstaller.HooksFolder
    do {
      folder = try HookInstaller.hooksFolder(of: path, home: home)
    } catch {
      return .unavailable(error.description)
    }
    if folder.path == globalFolder { return .installed("through the global hook") }
    guard GitHook.allCases.allSatisfy({ HookInstaller.isInstalled($0, in: folder.path) }) else {
      return .missing(folder: folder.path)
    }
    let chained = FileManager.default.fileExists(
      atPath: folder.path + "/" + GitHook.postCommit.rawValue + HookScript.chainedSuffix)
    var how = folder.fromHooksPath ? "through core.hooksPath \(folder.path)" : "in \(folder.path)"
    if chained { how += ", chained to your own post-commit hook" }
    return .installed(how)
  }

  private func checkJournalFolder(_ folder: String, ok: (String) -> Void, problem: (String) -> Void) {
    var candidate = folder
    while !FileManager.default.fileExists(atPath: candidate) && candidate != "/" {
      candidate = PathText.folder(of: candidate)
    }
    if FileManager.default.isWritableFile(atPath: candidate) {
      ok("journal folder \(folder) is writable")
    } else {
      problem("journal folder \(folder) is not writable: fix its permissions or set journal.dir")
    }
  }

  /// The machines whose day records are in the journal and when each last wrote one: a machine that has not
  /// written for a while still counts, its records are what it knew.
  private func showMachines(_ store: JournalStore, _ configuration: Configuration, ok: (String) -> Void) {
    guard configuration.shareFacts else {
      ok("day records: in the state folder (journal.shareFacts = false), this machine's only")
      return
    }
    let machines = store.machines()
    let others = machines.filter { $0.host != store.host }.count
    ok(
      "this machine writes as '\(store.host)' (journal.host)"
        + (others == 0 ? "" : "; \(others) other \(others == 1 ? "machine writes" : "machines write") this journal"))
    for machine in machines {
      let when =
        machine.lastWritten.map { configuration.calendar.isoTimestamp(Int64($0.timeIntervalSince1970)) } ?? "never"
      let this = machine.host == store.host ? " (this machine)" : ""
      ok(
        "machine \(machine.host)\(this): \(machine.days) \(machine.days == 1 ? "day" : "days") recorded, last wrote \(when)"
      )
    }
  }

  /// Sync tools' conflict copies of day files: merged and kept, or waiting for the next write of their day.
  private func showConflictCopies(_ store: JournalStore, ok: (String) -> Void, warn: (String) -> Void) {
    let copies = store.conflictCopies()
    if !copies.kept.isEmpty {
      let count = copies.kept.count
      ok(
        "\(count) sync conflict \(count == 1 ? "copy" : "copies") merged into \(count == 1 ? "its day file" : "their day files") and kept in \(copies.folder)"
      )
    }
    for copy in copies.waiting {
      warn(
        "sync conflict copy '\(copy.name)': its notes go into \(copy.page).md when that page is next written (a "
          + "commit of its day, or 'gitjournal rebuild' of its day)")
    }
  }

  private func checkModel(
    _ settings: NarrativeSettings, environment: Environment, ok: (String) -> Void, warn: (String) -> Void
  ) async {
    guard settings.engine != .off else {
      ok("model: off (narrative.engine = off); the journal has facts only")
      return
    }
    let url = settings.baseURL(environment: environment)
    let engine: any NarrativeEngine
    do {
      guard let made = try NarrativeEngines.engine(settings: settings, environment: environment) else { return }
      engine = made
    } catch {
      warn("model: \(error)")
      return
    }
    if await engine.isAvailable() {
      let models = await engine.modelNames() ?? []
      if models.isEmpty || models.contains(settings.model) || models.contains(settings.model + ":latest") {
        ok("model: \(settings.engine.rawValue) at \(url) serves \(settings.model)")
      } else if settings.engine == .ollama {
        warn("model: \(settings.model) is not pulled at \(url); run 'ollama pull \(settings.model)'")
      } else {
        warn("model: \(url) lists \(models.joined(separator: ", ")), not \(settings.model); set narrative.model")
      }
    } else if settings.engine == .ollama, await Self.speaksOpenAI(settings, url: url, environment: environment) {
      warn("model: \(url) speaks the OpenAI API, not Ollama's; set narrative.engine = openai")
      return
    } else {
      let start = settings.engine == .ollama ? "start it with 'ollama serve'" : "start your OpenAI-compatible server"
      warn("model: no \(settings.engine.rawValue) server answers at \(url) (\(start)); the journal has facts only")
      return
    }
    let backoff = NarrativeEngines.backoff(settings: settings, environment: environment)
    if let state = backoff.current(now: environment.now()) {
      let seconds = SecondsText.format(state.until.timeIntervalSince(environment.now()).rounded())
      warn("model: pausing for \(seconds) s after a failure: \(state.reason)")
    }
  }

  /// Whether an OpenAI-compatible engine at the same address is up: the usual reason an Ollama setting fails.
  private static func speaksOpenAI(_ settings: NarrativeSettings, url: String, environment: Environment) async -> Bool {
    var openAI = settings
    openAI.engine = .openai
    openAI.url = url
    guard let engine = try? NarrativeEngines.engine(settings: openAI, environment: environment) else { return false }
    return await engine.isAvailable()
  }

  private func showRecentLog(_ log: LogFile, title: String, style: TerminalStyle, out: TextOutput) {
    guard let text = try? AtomicFile.read(log.path) else { return }
    let lines = text.split(separator: "\n").suffix(3)
    guard !lines.isEmpty else { return }
    out.line(style.dim("last \(title) log lines (\(log.path)):"))
    for line in lines { out.line(style.dim("  " + line)) }
  }
}
