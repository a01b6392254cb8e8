import Foundation
import Testing

@testable import Support

/// `Environment.current` reads the process's variables itself (`processVariables`), byte by byte: what it gives
/// must be what Foundation gives, including values that hold `=` or are empty.
@Suite struct EnvironmentTests {
  @Test func theProcessVariablesAreFoundations() {
    #expect(Environment.processVariables() == ProcessInfo.processInfo.environment)
  }

  /// The real binary, started with a config path holding `=` and an empty variable beside it, reads the config
  /// at exactly that path.
  @Test func aValueHoldingAnEqualsSignIsKeptWhole() throws {
    let scratch = try ScratchDirectory()
    let folder = scratch.path("a=b")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "[repo \"named=odd\"]\n\tpath = \(scratch.path)\n".write(
      toFile: folder + "/config", atomically: true, encoding: .utf8)
    let result = try BinaryRunner.run(
      ["repos"],
      environment: [
        "HOME": scratch.path, "GITJOURNAL_CONFIG": folder + "/config", "EMPTY": "", "PATH": "/usr/bin:/bin",
      ],
      currentDirectory: scratch.path)
    // The scratch folder is no repository, which `repos` reports (status 2) beside its configured name.
    #expect(result.standardOutput.contains("named=odd"), "\(result)")
  }
}
