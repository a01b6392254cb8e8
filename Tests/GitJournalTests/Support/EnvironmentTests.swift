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
  /// Without `TZ`, `/etc/localtime`'s zone, named after the zone file it links to.
  @Test func withoutTZTheZoneIsTheSystems() throws {
    let environment = Environment(variables: [:], currentDirectory: "/")
    guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime") else {
      #expect(environment.systemTimeZone.identifier == (Environment.localTimeZone() == nil ? "UTC" : "localtime"))
      return
    }
    let name = link.components(separatedBy: "zoneinfo/").last ?? ""
    #expect(environment.systemTimeZone.identifier == name)
    #expect(environment.systemTimeZone == TimeZoneRules(identifier: name))
  }

  /// `TZ` as the C library reads it: a zone name with or without `:`, a zone file's path, a POSIX rule; empty is
  /// UTC, and what names no zone falls back to the system's.
  @Test func tzAsTheCLibraryReadsIt() throws {
    func zone(_ tz: String) -> TimeZoneRules {
      Environment(variables: ["TZ": tz], currentDirectory: "/").systemTimeZone
    }
    #expect(zone(":Europe/Paris").identifier == "Europe/Paris")
    #expect(zone("Europe/Paris").offset(at: 1_782_000_000) == 7_200)
    #expect(zone("/usr/share/zoneinfo/Asia/Tokyo").offset(at: 1_782_000_000) == 32_400)
    let rule = zone("EST5EDT4,M3.2.0,M11.1.0")
    #expect(rule.identifier == "EST5EDT4,M3.2.0,M11.1.0" && rule.offset(at: 1_782_000_000) == -14_400)
    #expect(zone("").identifier == "UTC")
    let system = Environment(variables: [:], currentDirectory: "/").systemTimeZone
    #expect(zone("Nowhere/Atlantis") == system)
    #expect(zone("../../etc/passwd") == system)
  }
}
