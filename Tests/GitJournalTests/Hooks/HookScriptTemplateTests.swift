import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import GitReader
@testable import Journal
@testable import Narrative
@testable import Support

/// The shipped hook template and the script compiled into the binary are one text, and a valid `sh` script.
@Suite struct HookScriptTemplateTests {
  /// `hooks/gitjournal-hook.sh.template` at the package root, found from this file.
  static func templateBytes(filePath: String = #filePath) throws -> [UInt8] {
    var root = filePath
    for _ in 0..<4 { root = (root as NSString).deletingLastPathComponent }
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
    let executable = scratch.path(#"bin it's "odd" $x `y`/gitjournal"#)
    let script = HookScript.render(hook: hook, executable: executable)
    #expect(HookScript.isGitJournalHook(script))
    #expect(script.contains(HookScript.marker + hook.rawValue + "\n"))
    #expect(!script.contains("@HOOK@") && !script.contains("@GITJOURNAL@"))
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
}
