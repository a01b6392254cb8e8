import Foundation
import Testing

@testable import CLI
@testable import Support

/// What a new user runs into in the first hour: each of these was wrong once.
@Suite struct FirstHourTests {
  /// Runs a command line in process with extra variables and the given output streams.
  static func run(
    _ sandbox: JournalSandbox, _ arguments: [String], variables: [String: String] = [:],
    output: TextOutput = TextOutput(),
    error: TextOutput = TextOutput()
  ) async -> Int32 {
    var environment = sandbox.environment()
    environment.variables.merge(variables) { $1 }
    return await CLI.main(arguments: arguments, environment: environment, standardOutput: output, standardError: error)
  }

  @Test func statsSaysOneDayAndFitsTheTerminal() async throws {
    let sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    try sandbox.register(app)
    _ = try app.commit(message: "One", date: "2026-03-09T09:00:00Z")
    let one = await sandbox.run("stats", "--weeks", "1")
    #expect(one.standardOutput.contains("longest streak 1 day\n"), "\(one)")
    _ = try app.commit(message: "Two", date: "2026-03-10T09:00:00Z")
    let two = await sandbox.run("stats", "--weeks", "1")
    #expect(two.standardOutput.contains("longest streak 2 days\n"), "\(two)")

    // The help's own example on an 80-column terminal: the terminal's width, read from the terminal itself.
    let terminal = try Pseudoterminal(columns: 80)
    #expect(await Self.run(sandbox, ["stats", "--weeks", "52"], output: terminal.output) == 0)
    let shown = terminal.written().replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    let lines = shown.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("Mon ") })
    #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.map(\.count))")
    // 52 weeks fit at one column each: every week is still there.
    let monday = try #require(lines.first { $0.hasPrefix("Mon ") })
    #expect(monday.count == Heatmap.margin + 52)

    // Narrower than the weeks: the newest ones, said so; COLUMNS wins, as for git.
    let narrow = TextOutput()
    #expect(await Self.run(sandbox, ["stats", "--weeks", "52"], variables: ["COLUMNS": "40"], output: narrow) == 0)
    let grid = narrow.text.split(separator: "\n").prefix(9)
    #expect(grid.allSatisfy { $0.count <= 40 }, "\(narrow.text)")
    #expect(narrow.text.contains("(the last 34 of 52 weeks shown)"), "\(narrow.text)")
    #expect(narrow.text.contains("2 commits on 2 of 359 days"))

    // A pipe gets every week at full width.
    let piped = await sandbox.run("stats", "--weeks", "52")
    let pipedMonday = try #require(piped.standardOutput.split(separator: "\n").first { $0.hasPrefix("Mon ") })
    #expect(pipedMonday.count == Heatmap.margin + 2 * 52)
  }

  @Test func reposRemoveOfAnUnknownNameFails() async throws {
    let sandbox = try JournalSandbox()
    let result = await sandbox.run("repos", "remove", "nosuch")
    #expect(result.status == ExitStatus.failure)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.contains("error: no configured repository is named or located at 'nosuch'"))
  }

  @Test func versionTyposAndTheShortFlag() async throws {
    let sandbox = try JournalSandbox()
    let typo = await sandbox.run("--verison")
    #expect(typo.status == ExitStatus.usage)
    #expect(typo.standardError.contains("'--verison' is not a gitjournal option; did you mean '--version'?"))
    let short = await sandbox.run("-v")
    #expect(short.status == 0)
    #expect(short.standardOutput == "gitjournal \(CLI.version)\n")
    let command = await sandbox.run("stast")
    #expect(command.standardError.contains("'stast' is not a gitjournal command; did you mean 'stats'?"))
  }

  @Test func installWithANewNameForAJournaledRepositoryChangesNothing() async throws {
    let sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    try sandbox.register(app)
    let before = try String(contentsOfFile: sandbox.configPath, encoding: .utf8)
    let result = try sandbox.runBinary("install", app.path, "--name", "other")
    #expect(result.status == ExitStatus.failure, "\(result)")
    #expect(result.standardError.contains("already journaled as 'app', so --name other was not applied"), "\(result)")
    #expect(try String(contentsOfFile: sandbox.configPath, encoding: .utf8) == before)
    #expect(!FileManager.default.fileExists(atPath: app.path + "/.git/hooks/post-commit"))
    // The same name is no change at all.
    let same = try sandbox.runBinary("install", app.path, "--name", "app")
    #expect(same.status == 0, "\(same)")
  }

  @Test func helpCompletionsKeepsEachCommandOnOneLine() async throws {
    let sandbox = try JournalSandbox()
    let text = await sandbox.run("help", "completions").standardOutput
    let lines = text.split(separator: "\n").map(String.init)
    for shell in ["bash", "zsh"] { #expect(lines.contains("  source <(gitjournal completions \(shell))"), "\(text)") }
    #expect(lines.contains("  gitjournal completions fish > ~/.config/fish/completions/gitjournal.fish"))
  }

  /// NO_COLOR takes the colours away, not the terminal's layout: the markers stay hidden.
  @Test func noColorKeepsTheTerminalLayout() async throws {
    let sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    try sandbox.register(app)
    _ = try app.commit(message: "Fix it", date: "2026-03-10T09:00:00Z")
    _ = await sandbox.run("rebuild", "2026-03-10")

    let colored = try Pseudoterminal()
    #expect(await Self.run(sandbox, ["show", "2026-03-10"], variables: ["TERM": "xterm"], output: colored.output) == 0)
    let plain = try Pseudoterminal()
    #expect(
      await Self.run(
        sandbox, ["show", "2026-03-10"], variables: ["TERM": "xterm", "NO_COLOR": "1"], output: plain.output)
        == 0)
    let coloredText = colored.written()
    let plainText = plain.written()
    #expect(coloredText.contains("\u{1B}["))
    #expect(!plainText.contains("\u{1B}["))
    #expect(!plainText.contains("gitjournal:begin"), "\(plainText)")
    let uncolored = coloredText.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    #expect(plainText == uncolored)
    // A pipe still gets the file as it is.
    #expect(await sandbox.run("show", "2026-03-10").standardOutput.contains("<!-- gitjournal:begin"))
  }

  /// `gitjournal hook` exits 0 whatever its arguments, as the README promises: git must never fail because of it.
  @Test func hookWithBadArgumentsExitsZero() throws {
    let sandbox = try JournalSandbox()
    for arguments in [["hook"], ["hook", "pre-push"], ["hook", "post-commit", "--bogus"], ["hook", "--config"]] {
      let result = try BinaryRunner.run(
        arguments, environment: sandbox.binaryEnvironment, currentDirectory: sandbox.home)
      #expect(result.status == 0, "\(arguments): \(result.standardError)")
      #expect(result.standardError.contains("error: "), "\(arguments)")
    }
  }

  @Test func reposRemoveForgetLeavesNoEmptySection() async throws {
    let sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    let site = try sandbox.makeRepository("site")
    try sandbox.register(app)
    try sandbox.configure("repo.app.private", "true")
    try sandbox.register(site)
    let forgot = await sandbox.run("repos", "remove", "--forget", "app")
    #expect(forgot.status == 0, "\(forgot)")
    let text = try String(contentsOfFile: sandbox.configPath, encoding: .utf8)
    #expect(!text.contains("[repo \"app\"]"), "\(text)")
    #expect(text.contains("[repo \"site\"]"))
    #expect(
      try Configuration(entries: ConfigFile(path: sandbox.configPath).entries(), environment: sandbox.environment())
        .repositories.map(\.name) == ["site"])
  }

  /// `repos remove --forget` asks first on a terminal: anything but yes erases nothing; `--yes` asks nothing.
  @Test func reposRemoveForgetAsksOnATerminal() async throws {
    let sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    try sandbox.register(app)
    _ = try app.commit(message: "Kept work", date: "2026-03-10T09:00:00Z")
    #expect(await sandbox.run("rebuild", "2026-03-10").status == 0)
    let before = try String(contentsOfFile: sandbox.configPath, encoding: .utf8)

    let terminal = try Pseudoterminal()
    terminal.type("n\n")
    let output = TextOutput()
    let error = TextOutput()
    let declined = await CLI.main(
      arguments: ["repos", "remove", "app", "--forget"], environment: sandbox.environment(), standardOutput: output,
      standardError: error, standardInput: terminal.input)
    #expect(declined == ExitStatus.failure)
    #expect(error.text.contains("Erase every commit of app"), "\(error.text)")
    #expect(output.text.contains("Kept app: nothing erased"), "\(output.text)")
    #expect(try String(contentsOfFile: sandbox.configPath, encoding: .utf8) == before)
    #expect(sandbox.journalFile("2026-03-10")?.contains("Kept work") == true)

    terminal.type("y\n")
    let accepted = await CLI.main(
      arguments: ["repos", "remove", "app", "--forget"], environment: sandbox.environment(),
      standardOutput: TextOutput(), standardError: TextOutput(), standardInput: terminal.input)
    #expect(accepted == ExitStatus.success)
    #expect(sandbox.journalFile("2026-03-10")?.contains("Kept work") != true)

    // --yes asks nothing, even on a terminal: nothing typed, nothing read.
    let site = try sandbox.makeRepository("site")
    try sandbox.register(site)
    let quiet = TextOutput()
    let forced = await CLI.main(
      arguments: ["repos", "remove", "site", "--forget", "--yes"], environment: sandbox.environment(),
      standardOutput: TextOutput(), standardError: quiet, standardInput: terminal.input)
    #expect(forced == ExitStatus.success)
    #expect(!quiet.text.contains("Erase"), "\(quiet.text)")
    #expect(await sandbox.run("repos", "remove", "site", "--yes").status == ExitStatus.usage)
  }

  /// A write to standard output that fails (a full disk) is an error, not a silent success.
  @Test func aFailedWriteToStandardOutputIsAnError() async throws {
    let sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    try sandbox.register(app)
    _ = try app.commit(message: "Some work", date: "2026-03-10T09:00:00Z")
    let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
    try #require(full >= 0)
    defer { close(full) }
    let error = TextOutput()
    let status = await CLI.main(
      arguments: ["show", "2026-03-10"], environment: sandbox.environment(),
      standardOutput: TextOutput(descriptor: full),
      standardError: error)
    #expect(status == ExitStatus.failure)
    #expect(error.text.contains("error: cannot write to standard output: No space left on device"), "\(error.text)")

    // The built binary, as a shell redirects it.
    let binary = try BinaryRunner.executable()
    let result = try Subprocess.run(
      "/bin/sh", ["-c", "'\(binary)' show 2026-03-10 > /dev/full"], environment: sandbox.binaryEnvironment,
      currentDirectory: sandbox.home)
    #expect(result.status == 1, "\(result)")
    #expect(result.standardError.contains("No space left on device"), "\(result)")
  }

  /// Only a section left with blank lines goes: comments are the user's, and the rest of the file stays as it was.
  @Test func emptiedSectionsGoAndCommentsStay() throws {
    let folder = try ScratchDirectory("config-tidy")
    let original = """
      # my journal
      [journal]
      \tdir = ~/journal
      [repo "a"]
      \tpath = /a

      [Repo "b"]
      \t# the notes app
      \tpath = /b
      [repo "A"]
      \tpath = /upper
      [narrative]
      \tengine = off

      """
    try folder.write(original, to: "config")
    let file = ConfigFile(path: folder.path("config"))
    try file.removeAll("repo.a.path")
    try file.removeAll("repo.b.path")
    #expect(
      folder.read("config") == """
        # my journal
        [journal]
        \tdir = ~/journal
        [Repo "b"]
        \t# the notes app
        [repo "A"]
        \tpath = /upper
        [narrative]
        \tengine = off

        """)
    try file.removeAll("narrative.engine")
    #expect(folder.read("config")?.hasSuffix("\tpath = /upper\n") == true, "\(folder.read("config") ?? "")")
    #expect(!FileManager.default.fileExists(atPath: folder.path("config.lock")))
  }

  @Test func headersAreReadAsGitReadsThem() {
    let quoted = ConfigSectionHeader(line: "[repo \"my \\\"app\\\"\"]")
    #expect(quoted?.section == "repo" && quoted?.subsection == "my \"app\"" && quoted?.isAlone == true)
    #expect(ConfigSectionHeader(line: "  [Journal] # mine")?.section == "journal")
    #expect(ConfigSectionHeader(line: "[journal] dir = x")?.isAlone == false)
    #expect(ConfigSectionHeader(line: "\tpath = /a") == nil)
    #expect(ConfigSectionHeader(line: "[repo.App]")?.subsection == "app")
  }

  /// Progress only on a terminal, labelled with what it counts (days with commits, not every day of the range);
  /// elsewhere one summary line.
  @Test func rebuildProgressCountsDaysWithCommitsAndIsOneLineInLogs() async throws {
    let sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    try sandbox.register(app)
    for day in 1...9 { try app.emptyCommit(message: "Day \(day)", date: "2026-02-0\(day)T10:00:00Z") }
    let result = await sandbox.run("rebuild", "--since", "2025-01-01", "--until", "2026-02-28", "--no-narrative")
    #expect(result.status == 0, "\(result)")
    let lines = result.standardError.split(separator: "\n")
    #expect(lines.count == 1, "\(result.standardError)")
    #expect(lines.first?.hasPrefix("days with commits: 9 of 9 written in ") == true, "\(result.standardError)")

    let terminal = try Pseudoterminal()
    let progress = ProgressReporter(label: "days with commits", output: terminal.output)
    progress.start(total: 9)
    for _ in 1...9 { progress.advance() }
    progress.finish(verb: "written")
    let drawn = terminal.written()
    #expect(drawn.contains("\r\u{1B}[2Kdays with commits "), "\(drawn)")
    #expect(drawn.contains(" 9/9"))
    #expect(drawn.hasSuffix("\n"))
    #expect(!drawn.contains("of 9 written"))
  }
}
