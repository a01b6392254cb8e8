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

/// With no `TZ`, the journal's days follow the zone `/etc/localtime` links to, as `TimeZone.current` does.
@Suite struct SystemTimeZoneTests {
  @Test func withoutTZTheZoneIsTheSystems() {
    var variables = ProcessInfo.processInfo.environment
    variables["TZ"] = nil
    let environment = Environment(variables: variables, currentDirectory: "/")
    if ProcessInfo.processInfo.environment["TZ"] == nil {
      #expect(environment.systemTimeZone.identifier == TimeZone.current.identifier)
    }
    // A machine without the link (some containers) has no zone to find: TimeZone.current decides there.
    guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
      link.contains("zoneinfo/")
    else {
      #expect(Environment.localTimeZone() == nil)
      return
    }
    let name = link.components(separatedBy: "zoneinfo/").last ?? ""
    #expect(Environment.localTimeZone()?.identifier == TimeZone(identifier: name)?.identifier)
  }

  @Test func aValidTZWinsAndAnInvalidOneFallsBack() {
    let paris = Environment(variables: ["TZ": ":Europe/Paris"], currentDirectory: "/")
    #expect(paris.systemTimeZone.identifier == "Europe/Paris")
    let invalid = Environment(variables: ["TZ": "Nowhere/Atlantis"], currentDirectory: "/")
    #expect(invalid.systemTimeZone.identifier == TimeZone.current.identifier)
  }
}
