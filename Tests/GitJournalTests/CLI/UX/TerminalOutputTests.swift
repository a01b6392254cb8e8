import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import GitReader
@testable import Journal
@testable import Support

/// What a person sees: colours only for terminals, the heatmap, completions, doctor's verdict.
@Suite struct TerminalOutputTests {
  @Test func styleIsOffForPipesAndWithNoColor() {
    let environment = Environment(variables: ["TERM": "xterm-256color"], currentDirectory: "/")
    #expect(!TerminalStyle(output: TextOutput(), environment: environment).isEnabled)
    let noColor = Environment(variables: ["NO_COLOR": "1"], currentDirectory: "/")
    #expect(!TerminalStyle(output: .standardOutput, environment: noColor).isEnabled)
    #expect(TerminalStyle(isEnabled: false).bold("x") == "x")
    #expect(TerminalStyle(isEnabled: true).bold("x") == "\u{1B}[1mx\u{1B}[0m")
  }

  @Test func showIsPlainMarkdownWhenNotATerminal() async throws {
    let sandbox = try JournalSandbox()
    let repository = try sandbox.makeRepository("app")
    try sandbox.register(repository)
    _ = try repository.commit(file: "a", content: "a\n", message: "Add a", date: "2026-03-10T09:00:00Z")
    let result = await sandbox.run("show", "2026-03-10")
    #expect(result.status == 0)
    #expect(!result.standardOutput.contains("\u{1B}["))
    #expect(result.standardOutput.contains("<!-- gitjournal:begin"))
  }

  @Test func terminalRenderingStylesCommitsAndHidesMarkers() {
    let facts = DayFacts(
      day: Day(year: 2026, month: 3, day: 10),
      projects: [
        ProjectFacts(
          name: "app", path: "/x", isPrivate: false,
          commits: [
            CommitRecord(
              id: .repeating("a"), authorName: "A", authorEmail: "a@x", authoredAt: 1_773_133_200,
              authorOffsetMinutes: 0, subject: "Fix it", isMerge: false,
              stats: DiffStats(filesChanged: 1, insertions: 12, deletions: 3))
          ])
      ])
    let calendar = JournalCalendar(timeZone: .utc)
    let file = JournalMerger.merge(
      page: JournalPage(facts: facts, narrative: nil, calendar: calendar), into: nil, day: facts.day)
    let styled = JournalFileRenderer.render(file, style: TerminalStyle(isEnabled: true))
    #expect(!styled.contains("gitjournal:begin"))
    #expect(!styled.contains("gitjournal:end"))
    #expect(styled.contains("\u{1B}[32m+12\u{1B}[0m"))
    #expect(styled.contains("\u{1B}[31m-3\u{1B}[0m"))
    #expect(styled.contains("\u{1B}[2m09:00\u{1B}[0m"))
    #expect(styled.contains("Fix it"))
    #expect(JournalFileRenderer.render(file, style: TerminalStyle(isEnabled: false)) == file)

    // With a branch: the same styles, and the branch in cyan between the id and the counts.
    var named = facts.projects[0].commits[0]
    named.branch = "feature/a, b"
    let branched = JournalMerger.merge(
      page: JournalPage(
        facts: DayFacts(
          day: facts.day, projects: [ProjectFacts(name: "app", path: "/x", isPrivate: false, commits: [named])]),
        narrative: nil, calendar: calendar), into: nil, day: facts.day)
    let styledBranch = JournalFileRenderer.render(branched, style: TerminalStyle(isEnabled: true))
    #expect(styledBranch.contains("\u{1B}[2maaaaaaa\u{1B}[0m \u{1B}[36mfeature/a, b\u{1B}[0m \u{1B}[32m+12\u{1B}[0m"))
  }

  @Test func statsDrawsTheHeatmapWithTotalsAndTheBusiestDay() async throws {
    let sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    let site = try sandbox.makeRepository("site")
    try sandbox.register(app)
    try sandbox.register(site)
    for hour in 9...11 {
      _ = try app.commit(message: "App \(hour)", date: "2026-03-09T\(hour):00:00Z")
    }
    _ = try site.commit(message: "Site", date: "2026-03-03T10:00:00Z")
    let result = await sandbox.run("stats", "--weeks", "4")
    #expect(result.status == 0, "\(result)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first?.contains("Feb") == true || lines.first?.contains("Mar") == true)
    #expect(lines.contains { $0.hasPrefix("Mon ") })
    #expect(lines.contains { $0.hasPrefix("Sun ") })
    #expect(result.standardOutput.contains("4 commits on 2 of 23 days"))
    #expect(result.standardOutput.contains("busiest day: 2026-03-09, 3 commits"))
    let appLine = try #require(lines.first { $0.hasPrefix("app ") })
    let siteLine = try #require(lines.first { $0.hasPrefix("site ") })
    #expect(appLine.contains(" 3 "))
    #expect(siteLine.contains(" 1 "))
    #expect(lines.firstIndex(of: appLine)! < lines.firstIndex(of: siteLine)!)
    let bad = await sandbox.run("stats", "--weeks", "0")
    #expect(bad.status == ExitStatus.usage)
  }

  @Test func bashCompletionIsValidShellAndNamesEveryCommand() throws {
    let script = CompletionsCommand.script(for: .bash, commands: CLI.commands.map(\.spec))
    let folder = try ScratchDirectory("completions")
    try folder.write(script, to: "gitjournal.bash")
    let check = try Subprocess.run(
      "/bin/bash", ["-n", folder.path("gitjournal.bash")], environment: [:], currentDirectory: folder.path)
    #expect(check.status == 0, "\(check.standardError)")
    for command in CLI.commands.map(\.spec.name) where command != "hook" {
      #expect(script.contains(command))
    }
    #expect(script.contains("--no-narrative"))
    for shell in CompletionsCommand.Shell.allCases {
      #expect(!CompletionsCommand.script(for: shell, commands: CLI.commands.map(\.spec)).isEmpty)
    }
  }

  @Test func doctorFailsWhenSomethingNeedsFixingAndPassesOtherwise() async throws {
    let sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    _ = try app.commit(message: "First", date: "2026-03-09T09:00:00Z")
    try sandbox.register(app)
    let healthy = await sandbox.run("doctor")
    #expect(healthy.status == ExitStatus.success, "\(healthy)")
    #expect(healthy.standardOutput.contains("app (\(app.path)): readable but not hooked"))
    #expect(healthy.standardOutput.contains("model: off"))
    #expect(healthy.standardOutput.split(separator: "\n").last?.hasPrefix("Working, with 1 warning") == true)

    try sandbox.register(path: sandbox.scratch.path("gone"), as: "gone")
    let broken = await sandbox.run("doctor")
    #expect(broken.status == ExitStatus.failure)
    #expect(broken.standardOutput.contains("gone ("))
    #expect(broken.standardOutput.split(separator: "\n").last == "1 problem needs fixing.")
  }
}
