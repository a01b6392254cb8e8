import Foundation
import Testing

@testable import CLI

/// The completion scripts, written from the command specs: bash's function is run on command lines with plain bash
/// (COMP_WORDS and COMP_CWORD set, COMPREPLY read back), as bash-completion would call it.
@Suite struct CompletionTests {
  /// Command lines (the last word is the one being completed) and what bash offers for them.
  static let cases: [([String], [String])] = [
    ([""], CLI.commands.map(\.spec.name).filter { $0 != "hook" } + ["help", "--help", "--version"]),
    (["--ver"], ["--version"]),
    (["completions", ""], ["bash", "zsh", "fish"]),
    (["repos", ""], ["list", "add", "scan", "rename", "move", "remove"]),
    (["repos", "re"], ["rename", "remove"]),
    (["repos", "--name", "x", ""], ["list", "add", "scan", "rename", "move", "remove"]),
    (["repos", "remove", "--f"], ["--forget"]),
    (["stats", ""], []),
    (["stats", "--weeks", ""], []),
    (["stats", "--"], StatsCommand.spec.options.map { "--" + $0.name }),
    (["rebuild", "--since", ""], ["today", "yesterday"]),
    (["rebuild", "--since", "today", "--u"], ["--until"]),
    (["show", "y"], ["yesterday"]),
    (["doctor", ""], []),
    (["hook", ""], []),
    (["help", "con"], ["config"]),
    (["help", "f"], ["format"]),
    (["install", "repos/a"], ["repos/app"]),
    (["repos", "add", "repos/"], ["repos/app", "repos/site"]),
    (["install", "--name", ""], []),
    (["config", ""], ["list", "get", "set", "add", "unset"]),
    (["config", "set", "journal.da"], ["journal.dayStart"]),
    (["config", "unset", "narrative.t"], ["narrative.temperature", "narrative.timeout"]),
    (["config", "list", "--"], ["--names", "--help"]),
    (["repos", "remove", ""], ["app", "site"]),
    (["repos", "remove", "s"], ["site"]),
    (["repos", "rename", ""], ["app", "site"]),
    (["repos", "scan", "repos/"], ["repos/app", "repos/site"]),
  ]

  @Test func bashOffersWhatEachCommandLineTakes() throws {
    let sandbox = try JournalSandbox()
    try sandbox.register(try sandbox.makeRepository("app"))
    try sandbox.register(try sandbox.makeRepository("site"))
    try sandbox.scratch.write("not a folder\n", to: "repos/app-notes.txt")
    let script = try sandbox.runBinary("completions", "bash")
    #expect(script.status == 0)
    try sandbox.scratch.write(script.standardOutput, to: "gitjournal.bash")

    var driver = "source \(sandbox.scratch.path("gitjournal.bash"))\n"
    for (words, _) in Self.cases {
      let quoted = (["gitjournal"] + words).map { "'\($0)'" }.joined(separator: " ")
      driver += "COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count); COMPREPLY=(); _gitjournal\n"
      driver += "printf '%s\\n' \"${COMPREPLY[*]}\"\n"
    }
    try sandbox.scratch.write(driver, to: "driver.bash")
    let result = try Subprocess.run(
      "/bin/bash", ["--norc", "--noprofile", sandbox.scratch.path("driver.bash")],
      environment: [
        "PATH": (try BinaryRunner.executable() as NSString).deletingLastPathComponent + ":/usr/bin:/bin",
        "GITJOURNAL_CONFIG": sandbox.configPath, "HOME": sandbox.home,
      ], currentDirectory: sandbox.scratch.path)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.isEmpty, "\(result.standardError)")
    let replies = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for (index, (words, expected)) in Self.cases.enumerated() {
      let offered = index < replies.count ? replies[index].split(separator: " ").map(String.init) : ["(nothing)"]
      #expect(Set(offered) == Set(expected), "gitjournal \(words.joined(separator: " "))<TAB>")
    }
  }

  /// fish completes paths for `install` (no `complete -c gitjournal -f` for every word) and nothing for `stats`;
  /// zsh has a case for `help`. Each script parses in its own shell when that shell is installed.
  @Test func zshAndFishScriptsCoverTheSameCommands() throws {
    let commands = CLI.commands.map(\.spec)
    let fish = CompletionsCommand.script(for: .fish, commands: commands)
    let zsh = CompletionsCommand.script(for: .zsh, commands: commands)
    #expect(!fish.split(separator: "\n").contains("complete -c gitjournal -f"))
    #expect(
      fish.contains(
        "complete -c gitjournal -n '__fish_seen_subcommand_from install' -f -a '(__fish_complete_directories)'"))
    #expect(fish.contains("complete -c gitjournal -n '__fish_seen_subcommand_from stats' -f\n"))
    #expect(
      fish.contains(
        "__fish_seen_subcommand_from repos; and not __fish_seen_subcommand_from list add scan rename move remove"))
    #expect(zsh.contains("    help) _arguments '1:topic:("))
    #expect(zsh.contains("'1:action:(list add scan rename move remove)'"))
    for command in commands where command.name != "hook" {
      #expect(zsh.contains("    \(command.name)) _arguments"), "zsh: \(command.name)")
      #expect(fish.contains("-a \(command.name) -d"), "fish: \(command.name)")
    }
    let folder = try ScratchDirectory("completions")
    for (shell, script) in [("zsh", zsh), ("fish", fish)] {
      let executable = "/usr/bin/\(shell)"
      guard FileManager.default.isExecutableFile(atPath: executable) else { continue }
      try folder.write(script, to: "gitjournal.\(shell)")
      let check = try Subprocess.run(
        executable, ["-n", folder.path("gitjournal.\(shell)")], environment: [:], currentDirectory: folder.path)
      #expect(check.status == 0, "\(shell): \(check.standardError)")
    }
    // fish can complete a command line itself.
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") {
      _ = try folder.makeFolder("repos/app")
      for (line, expected) in [
        ("gitjournal completions ", "bash\nfish\nzsh\n"), ("gitjournal install rep", "repos/\tDirectory\n"),
      ] {
        let result = try Subprocess.run(
          "/usr/bin/fish", ["--no-config", "-c", "source gitjournal.fish; complete -C '\(line)'"],
          environment: ["HOME": folder.path, "PATH": "/usr/bin:/bin"], currentDirectory: folder.path)
        #expect(result.standardOutput == expected, "\(line): \(result)")
      }
    }
  }
}
