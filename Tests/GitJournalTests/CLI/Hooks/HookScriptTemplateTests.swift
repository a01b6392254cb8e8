import Foundation
import Testing

@testable import CLI

/// The shipped hook template and the script compiled into the binary are one text, and a valid `sh` script.
@Suite struct HookScriptTemplateTests {
  /// `hooks/gitjournal-hook.sh.template` at the package root, found from this file.
  static func templateBytes(filePath: String = #filePath) throws -> [UInt8] {
    var root = filePath
    for _ in 0..<5 { root = (root as NSString).deletingLastPathComponent }
    let path = root + "/hooks/gitjournal-hook.sh.template"
    let data = try #require(FileManager.default.contents(atPath: path), "cannot read \(path)")
    return Array(data)
  }

  @Test func templateFileMatchesTheCompiledScript() throws {
    let bytes = try Self.templateBytes()
    #expect(bytes == Array(HookScript.template.utf8))
  }

  @Test func templateIsAPlainShellScript() throws {
    let bytes = try Self.templateBytes()
    #expect(!bytes.contains(UInt8(ascii: "\r")), "CRLF or CR line endings break #!/bin/sh")
    #expect(bytes.starts(with: Array("#!/bin/sh\n".utf8)))
    #expect(bytes.last == UInt8(ascii: "\n"))
    #expect(!bytes.starts(with: [0xEF, 0xBB, 0xBF]), "a byte order mark hides the #!")
  }

  @Test(arguments: GitHook.allCases)
  func renderedScriptParses(hook: GitHook) throws {
    let scratch = try ScratchDirectory("gitjournal-hook-script")
    let executable = scratch.path(#"bin it's "odd" $x `y` @CONFIG@/gitjournal"#)
    let config = scratch.path("conf @HOOK@ 'x'/config")
    let script = HookScript.render(hook: hook, executable: executable, configPath: config)
    #expect(HookScript.isGitJournalHook(script))
    #expect(HookScript.isUnedited(script, hook: hook))
    #expect(script.contains(HookScript.marker + hook.rawValue + "\n"))
    #expect(!script.contains("@HOOK@\n") && !script.contains("@GITJOURNAL@") && !script.contains("@CHECKSUM@"))
    #expect(script.contains(HookScript.shellQuoted(executable)) && script.contains(HookScript.shellQuoted(config)))
    try scratch.write(script, to: hook.rawValue)
    let check = try Subprocess.run(
      "/bin/sh", ["-n", scratch.path(hook.rawValue)], environment: ["PATH": "/usr/bin:/bin"],
      currentDirectory: scratch.path)
    #expect(check.status == 0, "\(check.standardError)")
    // The quoted path evaluates back to exactly the original.
    let echo = try Subprocess.run(
      "/bin/sh", ["-c", "printf '%s' " + HookScript.shellQuoted(executable)], environment: ["PATH": "/usr/bin:/bin"],
      currentDirectory: scratch.path)
    #expect(echo.standardOutput == executable)
  }

  /// A script gitjournal wrote is recognised whatever binary and config it names; any edit, even one byte or a
  /// line ending, makes it the user's.
  @Test(arguments: GitHook.allCases)
  func editedScriptIsNotGitJournals(hook: GitHook) {
    let script = HookScript.render(hook: hook, executable: "/opt/gitjournal/gitjournal", configPath: "/home/a/config")
    let other = GitHook.allCases.first { $0 != hook }!
    #expect(HookScript.isUnedited(script, hook: hook))
    #expect(!HookScript.isUnedited(script, hook: other), "a script for another hook")
    let edits = [
      script.replacingOccurrences(of: "exit \"$status\"\n", with: "echo mine\nexit \"$status\"\n"),
      script.replacingOccurrences(of: "/home/a/config", with: "/home/b/config"),
      script.replacingOccurrences(of: "\n", with: "\r\n"),
      script + "echo appended\n",
      String(script.dropLast()),
    ]
    for edited in edits {
      #expect(HookScript.isGitJournalHook(edited))
      #expect(!HookScript.isUnedited(edited, hook: hook), "\(edited)")
    }
  }

  /// The script of gitjournal 0.1.0 (no config, no checksum) is still recognised byte for byte, for any binary
  /// path, so that `install` upgrades it instead of chaining it; edited, it is the user's.
  @Test(arguments: GitHook.allCases)
  func scriptOf010IsStillGitJournals(hook: GitHook) {
    for executable in ["/usr/local/bin/gitjournal", #"/home/x/it's "odd"/gitjournal"#] {
      let old = HookConfigTests.scriptOf010.replacingOccurrences(of: "@HOOK@", with: hook.rawValue)
        .replacingOccurrences(of: "@GITJOURNAL@", with: HookScript.shellQuoted(executable))
      #expect(HookScript.isUnedited(old, hook: hook), "\(old)")
      let other = GitHook.allCases.first { $0 != hook }!
      #expect(!HookScript.isUnedited(old, hook: other))
      let quoted = HookScript.shellQuoted(executable)
      for edited in [
        old.replacingOccurrences(of: quoted, with: quoted + "; touch /tmp/x"),
        old.replacingOccurrences(of: "exit \"$status\"\n", with: "echo mine\nexit \"$status\"\n"),
        old + "\n",
      ] {
        #expect(!HookScript.isUnedited(edited, hook: hook), "\(edited)")
      }
    }
  }
}
