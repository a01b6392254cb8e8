import Foundation
import Testing

@testable import CLI

/// `install.sh` puts the binary, the completions and the manual page where bash-completion, zsh, fish and man look,
/// and `--uninstall` removes exactly that, leaving what was there before.
@Suite struct InstallScriptTests {
  static var root: String {
    var path = #filePath
    for _ in 0..<4 { path = (path as NSString).deletingLastPathComponent }
    return path
  }

  @Test func installsWhereShellsAndManLookAndUninstallsExactlyThat() throws {
    let scratch = try ScratchDirectory("install-script")
    let home = scratch.path("home")
    try scratch.write("mine\n", to: "home/.local/bin/other-tool")
    try scratch.write(".TH OTHER 1\n", to: "home/.local/share/man/man1/other.1")
    let before = scratch.allFiles()
    let environment = [
      "HOME": home, "PATH": home + "/.local/bin:/usr/bin:/bin", "GITJOURNAL_BUILT": try BinaryRunner.executable(),
    ]
    func install(_ arguments: [String] = []) throws -> ProcessResult {
      try Subprocess.run(
        "/bin/sh", [Self.root + "/install.sh"] + arguments, environment: environment, currentDirectory: home)
    }
    let first = try install()
    #expect(first.status == 0, "\(first.standardError)\(first.standardOutput)")
    #expect(try install().status == 0, "running it again is fine")

    let share = home + "/.local/share"
    let installed = [
      home + "/.local/bin/gitjournal", share + "/bash-completion/completions/gitjournal",
      share + "/zsh/site-functions/_gitjournal", share + "/fish/vendor_completions.d/gitjournal.fish",
      share + "/man/man1/gitjournal.1",
    ]
    for path in installed { #expect(FileManager.default.fileExists(atPath: path), "\(path)") }
    let manifest = try String(contentsOfFile: share + "/gitjournal/install-manifest", encoding: .utf8)
    for path in installed { #expect(manifest.contains(path + "\n"), "\(path) in the manifest") }
    #expect(!manifest.contains(home + "/.local/bin/\n"), "the folder was there before")
    #expect(manifest.contains(share + "/bash-completion/\n"), "a folder it created")
    let bash = try String(contentsOfFile: share + "/bash-completion/completions/gitjournal", encoding: .utf8)
    #expect(bash == CompletionsCommand.script(for: .bash, commands: CLI.commands.map(\.spec)))
    #expect(first.standardOutput.contains("fpath=(\(share)/zsh/site-functions $fpath)"), "zsh needs a line: it says so")

    // man finds the page from PATH alone: ~/.local/bin on PATH means ~/.local/share/man.
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") {
      var manEnvironment = environment
      manEnvironment["MANPATH"] = nil
      let found = try Subprocess.run(
        "/usr/bin/man", ["-w", "gitjournal"], environment: manEnvironment, currentDirectory: home)
      #expect(found.standardOutput == share + "/man/man1/gitjournal.1\n", "\(found)")
    }

    // bash-completion and fish find their files with no line in a profile.
    if FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion") {
      let loaded = try Subprocess.run(
        "/bin/bash",
        [
          "--norc", "-c",
          "source /usr/share/bash-completion/bash_completion; __load_completion gitjournal; complete -p gitjournal",
        ],
        environment: environment, currentDirectory: home)
      #expect(loaded.standardOutput.contains("-F _gitjournal gitjournal"), "\(loaded)")
    }
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") {
      let completed = try Subprocess.run(
        "/usr/bin/fish", ["-c", "complete -C 'gitjournal completions '"], environment: environment,
        currentDirectory: home)
      #expect(completed.standardOutput == "bash\nfish\nzsh\n", "\(completed)")
    }

    let removed = try install(["--uninstall"])
    #expect(removed.status == 0, "\(removed.standardError)")
    #expect(scratch.allFiles() == before, "\(scratch.allFiles())")
    for folder in ["/bash-completion", "/zsh", "/fish", "/gitjournal"] {
      #expect(!FileManager.default.fileExists(atPath: share + folder), "\(folder)")
    }
    #expect(FileManager.default.fileExists(atPath: share + "/man/man1"))
    #expect(try install(["--bogus"]).status == 64)
  }

  /// The manual page is the help's own text in roff, with every command.
  @Test func manualPageHoldsEveryCommandAndTopic() async throws {
    let sandbox = try JournalSandbox()
    let result = await sandbox.run("help", "--man")
    #expect(result.status == 0)
    let page = result.standardOutput
    #expect(page.hasPrefix(".TH GITJOURNAL 1 "))
    for command in CLI.commands.map(\.spec) where command.name != "hook" {
      #expect(page.contains(".SS gitjournal \(ManPage.escaped(command.usage))"), "\(command.name)")
    }
    #expect(page.contains(".SH CONFIGURATION"))
    #expect(page.contains(ManPage.escaped("journal.excludePaths")))
    // No line of text can be read as a roff request.
    let requests = [".TH", ".SH", ".SS", ".PP", ".TP", ".B ", ".BR", ".RS", ".RE", ".nf", ".fi", ".br"]
    for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
      #expect(requests.contains { line.hasPrefix($0) }, "\(line)")
    }
  }
}
