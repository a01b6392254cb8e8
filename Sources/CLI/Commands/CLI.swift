import Facts
import GitReader
import Journal
import Narrative
import Support

/// The entry point: picks the command, runs it, and maps every error to a message and an exit status.
public enum CLI {
  public static let version = Version.current

  static let commands: [RegisteredCommand] = [
    RegisteredCommand(InstallCommand.self), RegisteredCommand(UninstallCommand.self),
    RegisteredCommand(RebuildCommand.self), RegisteredCommand(ShowCommand.self), RegisteredCommand(StandupCommand.self),
    RegisteredCommand(ReposCommand.self),
    RegisteredCommand(ConfigCommand.self),
    RegisteredCommand(StatsCommand.self), RegisteredCommand(McpCommand.self),
    RegisteredCommand(CompletionsCommand.self),
    RegisteredCommand(DoctorCommand.self), RegisteredCommand(NarrateCommand.self), RegisteredCommand(HookCommand.self),
  ]

  static let overview = CommandSpec(
    name: "", abstract: "gitjournal: a daily markdown journal of your commits across all your repositories.",
    usage: "<command> [<options>]")

  /// Runs one command line. Output goes to the given streams so tests can run commands in process.
  /// With Swift 6.2 or later it runs on its caller's executor, the executable's main thread, as the hook's whole
  /// path down to `FactsReader.read` does, instead of hopping to Swift's global pool, whose first job starts its
  /// threads (`NonisolatedNonsendingByDefault`, see Package.swift).
  ///
  /// A write to standard output that failed (`gitjournal show > /dev/full`) makes the command fail: its output is
  /// incomplete.
  /// `standardInput`: where a question (`repos remove --forget`) reads its answer, when it is a terminal.
  public static func main(
    arguments: [String], environment: Environment, standardOutput: TextOutput = .standardOutput,
    standardError: TextOutput = .standardError, standardInput: Int32 = 0
  ) async -> Int32 {
    let status = await run(
      arguments: arguments, environment: environment, standardOutput: standardOutput, standardError: standardError,
      standardInput: standardInput)
    guard let failure = standardOutput.failure, arguments.first != HookCommand.spec.name else { return status }
    standardError.line("error: cannot write to standard output: \(failure)")
    return status == ExitStatus.usage ? status : ExitStatus.failure
  }

  private static func run(
    arguments: [String], environment: Environment, standardOutput: TextOutput, standardError: TextOutput,
    standardInput: Int32
  ) async -> Int32 {
    let context = CommandContext(
      environment: environment, standardOutput: standardOutput, standardError: standardError,
      standardInput: standardInput)
    guard let first = arguments.first else {
      standardOutput.write(overviewText)
      return ExitStatus.success
    }
    switch first {
    case "--help", "-h":
      standardOutput.write(overviewText)
      return ExitStatus.success
    case "--version", "-v":
      standardOutput.line("gitjournal \(version)")
      // How this build reads git: which libgit2, linked how (Package.swift decides from what the system has).
      if arguments.dropFirst().contains("--verbose") {
        for line in LibGit2.buildDescription { standardOutput.line(line) }
      }
      return ExitStatus.success
    case "help":
      return help(topic: arguments.dropFirst().first, context: context)
    default:
      break
    }
    guard let command = commands.first(where: { $0.spec.name == first }) else {
      let isOption = first.hasPrefix("-")
      var message = "'\(first)' is not a gitjournal \(isOption ? "option" : "command")"
      let known = isOption ? ["--help", "--version"] : commands.map(\.spec.name)
      if let suggestion = Suggestion.closest(to: first, among: known) {
        message += "; did you mean '\(suggestion)'?"
      }
      return report(UsageError(message: message, spec: nil), context: context)
    }
    do {
      let parsed = try ParsedArguments(Array(arguments.dropFirst()), spec: command.spec)
      if parsed.has(.help) {
        standardOutput.write(command.spec.helpText)
        return ExitStatus.success
      }
      let status = try await command.execute(parsed, context)
      // Files of the journal folder refused while the command ran (the hook logs its own). Looked up only when there
      // are some: the config says which journal folder is this command's.
      if RefusedInputs.hasPending, command.spec.name != HookCommand.spec.name,
        let configuration = try? Configuration.load(context.environment)
      {
        for line in RefusedInputs.take(inside: configuration.journalDirectory) {
          standardError.line("warning: \(line)")
        }
      }
      return status
    } catch {
      let status = report(error, context: context)
      // A hook that git runs must never fail the git command, whatever its arguments.
      return command.spec.name == HookCommand.spec.name ? ExitStatus.success : status
    }
  }

  static func help(topic: String?, context: CommandContext) -> Int32 {
    guard let topic else {
      context.standardOutput.write(overviewText)
      return ExitStatus.success
    }
    if topic == "--man" {
      context.standardOutput.write(ManPage.text(commands: commands.map(\.spec), topics: ManPage.topics))
      return ExitStatus.success
    }
    if let text = HelpTopics.all[topic] {
      context.standardOutput.write(text)
      return ExitStatus.success
    }
    guard let command = commands.first(where: { $0.spec.name == topic }) else {
      var message = "no help for '\(topic)': not a command or topic"
      let known = commands.map(\.spec.name) + HelpTopics.all.keys.sorted()
      if let suggestion = Suggestion.closest(to: topic, among: known) { message += "; did you mean '\(suggestion)'?" }
      return report(UsageError(message: message, spec: nil), context: context)
    }
    context.standardOutput.write(command.spec.helpText)
    return ExitStatus.success
  }

  static var overviewText: String {
    var text = overview.abstract + "\n\nUsage: gitjournal <command> [<options>]\n\nCommands:\n"
    let width = (commands.map(\.spec.name.count).max() ?? 0) + 2
    for command in commands {
      let name = command.spec.name
      text += "  " + name + String(repeating: " ", count: width - name.count) + command.spec.abstract + "\n"
    }
    text +=
      "\nOptions:\n  -h, --help     Show this help.\n  -v, --version  Print gitjournal's version (with --verbose: how it reads git).\n"
    text += "\nSee 'gitjournal help <command>' for a command's options, 'gitjournal help config' for the\n"
    text += "config keys and 'gitjournal help format' for the journal file.\n"
    return text
  }

  /// The one place that turns an error into output and an exit status.
  static func report(_ error: any Error, context: CommandContext) -> Int32 {
    if let usage = error as? UsageError {
      context.standardError.line("error: \(usage.message)")
      if let spec = usage.spec {
        context.standardError.line("Usage: gitjournal \(spec.usage)")
        context.standardError.line("See 'gitjournal help \(spec.name)'.")
      } else {
        context.standardError.line("See 'gitjournal help'.")
      }
      return ExitStatus.usage
    }
    context.standardError.line("error: \(error)")
    return ExitStatus.failure
  }
}
