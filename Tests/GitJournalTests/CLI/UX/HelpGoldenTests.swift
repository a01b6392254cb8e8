import Foundation
import Testing

@testable import CLI

/// Pins every help text to a golden file: a change to what users read is a deliberate change to the file.
/// To update after such a change: `.build/debug/gitjournal help <topic> > Tests/GitJournalTests/CLI/Golden/help-<topic>.txt`.
@Suite struct HelpGoldenTests {
  static let topics = [
    "overview", "install", "uninstall", "rebuild", "show", "standup", "repos", "stats", "mcp", "completions", "doctor",
    "narrate", "hook",
    "config", "format",
  ]

  static func golden(_ topic: String) throws -> String {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Golden")
    return try String(contentsOf: folder.appendingPathComponent("help-\(topic).txt"), encoding: .utf8)
  }

  @Test(arguments: topics)
  func helpMatchesItsGoldenFile(topic: String) async throws {
    let sandbox = try JournalSandbox()
    let result = await sandbox.run(topic == "overview" ? ["help"] : ["help", topic])
    #expect(result.status == ExitStatus.success)
    #expect(result.standardError.isEmpty)
    let golden = try Self.golden(topic)
    #expect(result.standardOutput == golden)
  }

  @Test func everyCommandHelpHasSummaryUsageOptionsAndExample() async throws {
    let sandbox = try JournalSandbox()
    for command in CLI.commands.map(\.spec) {
      let result = await sandbox.run(command.name, "--help")
      #expect(result.status == ExitStatus.success)
      let text = result.standardOutput
      #expect(text.hasPrefix(command.abstract + "\n"), "\(command.name) starts with its summary")
      #expect(text.contains("Usage: gitjournal \(command.name)"))
      #expect(text.contains("\nOptions:\n"))
      #expect(text.contains("\nExamples:\n  gitjournal \(command.name)"), "\(command.name) has an example")
      for option in command.options where option.defaultValue != nil {
        #expect(text.contains("(default: \(option.defaultValue!))"), "\(command.name) --\(option.name) default")
      }
    }
  }

  @Test func everyConfigKeyIsExplained() throws {
    let keys = [
      "journal.dir", "journal.author", "journal.timezone", "journal.dayStart", "journal.merges", "journal.weekStart",
      "journal.links", "journal.weekly", "journal.monthly", "repo.<name>.path",
      "repo.<name>.private", "repo.<name>.exclude", "repo.<name>.excludePaths", "journal.include", "journal.exclude",
      "journal.excludePaths", "journal.ignoreAuthors", "narrative.engine", "narrative.url", "narrative.model",
      "narrative.temperature",
      "narrative.healthTimeout", "narrative.timeout", "narrative.retryDelay", "narrative.allowRemote",
    ]
    let documentation = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/configuration.md"),
      encoding: .utf8)
    for key in keys {
      #expect(HelpTopics.config.contains(key), "help config explains \(key)")
      #expect(documentation.contains("`\(key)`"), "docs/configuration.md explains \(key)")
    }
  }

  @Test func mistypedOptionAndTopicSuggestTheClosest() async throws {
    let sandbox = try JournalSandbox()
    let option = await sandbox.run("rebuild", "--no-narative")
    #expect(option.status == ExitStatus.usage)
    #expect(option.standardError.contains("did you mean '--no-narrative'?"))
    #expect(option.standardError.contains("Usage: gitjournal rebuild"))
    let topic = await sandbox.run("help", "confg")
    #expect(topic.status == ExitStatus.usage)
    #expect(topic.standardError.contains("did you mean 'config'?"))
  }
}
