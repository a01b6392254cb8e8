import Foundation
import Testing

@testable import CLI

/// The entry point in process: help, unknown commands and options.
@Suite struct CLITests {
  let sandbox: JournalSandbox

  init() throws { sandbox = try JournalSandbox() }

  @Test func helpGoesToStandardOutput() async {
    for arguments in [["--help"], ["-h"], ["help"], []] {
      let result = await sandbox.run(arguments)
      #expect(result.status == 0, "\(arguments)")
      #expect(result.standardError.isEmpty)
      #expect(result.standardOutput.contains("Usage: gitjournal <command> [<options>]"), "\(arguments)")
      for command in ["show", "rebuild", "repos"] {
        #expect(result.standardOutput.contains("\n  \(command) "), "\(arguments) lists \(command)")
      }
    }
    for command in ["show", "rebuild", "repos"] {
      let viaHelp = await sandbox.run("help", command)
      let viaFlag = await sandbox.run(command, "--help")
      #expect(viaHelp.status == 0 && viaFlag.status == 0)
      #expect(viaHelp.standardOutput == viaFlag.standardOutput)
      #expect(viaHelp.standardOutput.contains("Usage: gitjournal \(command)"))
      #expect(viaHelp.standardOutput.contains("--help"))
    }
  }

  @Test(arguments: [("shwo", "show"), ("rebuidl", "rebuild"), ("repo", "repos"), ("show-", "show")])
  func unknownCommandSuggestsTheClosest(typed: String, meant: String) async {
    let result = await sandbox.run(typed)
    #expect(result.status == ExitStatus.usage)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasPrefix("error: '\(typed)' is not a gitjournal command; did you mean '\(meant)'?\n"))
    #expect(result.standardError.contains("See 'gitjournal help'."))
  }

  @Test func farFromAnyCommandSuggestsNothing() async {
    let result = await sandbox.run("xyzzyplugh")
    #expect(result.status == ExitStatus.usage)
    #expect(!result.standardError.contains("did you mean"))
  }

  @Test func unknownOptionSuggestsTheClosest() async {
    let result = await sandbox.run("show", "--jsn")
    #expect(result.status == ExitStatus.usage)
    #expect(result.standardError.contains("unknown option '--jsn'; did you mean '--json'?"))
    #expect(result.standardError.contains("Usage: gitjournal show"))
  }

  @Test func versionIsPrinted() async {
    let result = await sandbox.run("--version")
    #expect(result.status == 0)
    #expect(result.standardOutput == "gitjournal \(CLI.version)\n")
  }
}
