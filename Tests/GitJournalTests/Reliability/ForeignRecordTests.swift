import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import GitReader

/// Another machine's day records arrive through the sync tool: input from outside. A record whose numbers overflow,
/// whose commit is dated far from its day, or which is a symlink or huge is refused as a whole with one line; the
/// journal stays right, and no command crashes.
@Suite struct ForeignRecordTests {
  static let day = "2026-03-10"
  /// 2026-03-10 09:00 UTC.
  static let morning: Int64 = 1_773_133_200

  /// A sandbox with one repository of one commit on the day, journaled, and the folder of another machine's records.
  private func world() async throws -> (sandbox: JournalSandbox, foreign: String) {
    let sandbox = try JournalSandbox()
    let repository = try sandbox.makeRepository("app")
    try sandbox.register(repository)
    try repository.commit(file: "a.txt", content: "a\n", message: "Own work", date: "2026-03-10T10:00:00Z")
    let rebuilt = await sandbox.run("rebuild", Self.day)
    #expect(rebuilt.status == ExitStatus.success, "\(rebuilt)")
    let foreign = sandbox.journalDirectory + "/.gitjournal/beta"
    try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
    return (sandbox, foreign)
  }

  /// A record of the day by machine beta with `commits` commit lines of (id digit, author time, files, insertions,
  /// deletions).
  private func record(_ commits: [(String, Int64, String, String, String)]) -> String {
    var lines = ["day\t1\t\(Self.day)", "project\tbeta-project\t/beta/project\t0"]
    for (digit, time, files, insertions, deletions) in commits {
      let id = String(repeating: digit, count: 40)
      lines.append(
        ["commit", id, String(time), "0", "0", files, insertions, deletions, "Beta", "beta@example.com", "Beta work"]
          .joined(separator: "\t"))
    }
    return (lines + ["end"]).joined(separator: "\n") + "\n"
  }

  private func expectRefused(_ sandbox: JournalSandbox, file: String, line reason: String) async throws {
    // Every command that reads the day: none crashes, each shows this machine's commit only.
    for arguments in [["show", Self.day, "--json"], ["show", "--week", Self.day], ["rebuild", Self.day], ["stats"]] {
      let result = await sandbox.run(arguments)
      #expect(result.status == ExitStatus.success, "\(arguments): \(result)")
      #expect(!result.standardOutput.contains("Beta work"), "\(arguments): \(result.standardOutput)")
      let warnings = result.standardError.split(separator: "\n").filter { $0.contains(file) }
      #expect(warnings.count <= 1, "\(arguments): \(result.standardError)")
      if let warning = warnings.first { #expect(warning.contains(reason), "\(warning)") }
    }
    let report = try await sandbox.report(Self.day)
    #expect(report.commitCount == 1)
    let page = try #require(sandbox.journalFile(Self.day))
    #expect(page.contains("Own work") && !page.contains("Beta work"))
  }

  @Test func countsThatOverflowRefuseTheRecord() async throws {
    let (sandbox, foreign) = try await world()
    let huge = "999999999999999999"
    let commits = (0..<10).map { index in (String(index), Self.morning + Int64(index), "1", huge, "0") }
    let file = foreign + "/\(Self.day).tsv"
    try record(commits).write(toFile: file, atomically: true, encoding: .utf8)
    try await expectRefused(sandbox, file: file, line: "out of range")
  }

  @Test func negativeCountsAndFarDatesRefuseTheRecord() async throws {
    for commit in [
      ("a", Self.morning, "1", "-5", "-7"), ("b", Self.morning, "-1", "1", "1"),
      ("c", 253_402_300_000, "1", "1", "1"), ("d", Self.morning - 30 * 86_400, "1", "1", "1"),
    ] {
      let (sandbox, foreign) = try await world()
      let file = foreign + "/\(Self.day).tsv"
      try record([commit]).write(toFile: file, atomically: true, encoding: .utf8)
      try await expectRefused(sandbox, file: file, line: "out of range")
    }
  }

  @Test func aRecordInRangeIsJoined() async throws {
    let (sandbox, foreign) = try await world()
    let file = foreign + "/\(Self.day).tsv"
    try record([("e", Self.morning, "2", "10", "3")]).write(toFile: file, atomically: true, encoding: .utf8)
    let report = try await sandbox.report(Self.day)
    #expect(report.commitCount == 2)
  }

  /// A machine whose name sorts first says this machine's commit has another subject and other counts, and another
  /// lists that commit as forgotten for a project it names: this machine's page keeps its own word.
  @Test func foreignRecordsDoNotOverrideThisMachinesCommits() async throws {
    let (sandbox, foreign) = try await world()
    let own = try #require(try await sandbox.report(Self.day).allCommits.first)
    let claimed = [
      "commit", own.id.hex, String(Self.morning), "0", "0", "9", "9999", "9999", "M", "m@example.com", "Stolen subject",
    ].joined(separator: "\t")
    let text = ["day\t1\t\(Self.day)", "project\tapp\t/elsewhere/app\t0", claimed, "end"].joined(separator: "\n")
    let first = sandbox.journalDirectory + "/.gitjournal/aaa"
    try FileManager.default.createDirectory(atPath: first, withIntermediateDirectories: true)
    try (text + "\n").write(toFile: first + "/\(Self.day).tsv", atomically: true, encoding: .utf8)
    try FileManager.default.removeItem(atPath: foreign)
    let last = sandbox.journalDirectory + "/.gitjournal/zzz"
    try FileManager.default.createDirectory(atPath: last, withIntermediateDirectories: true)
    try "forgotten\t1\ncommit\t\(own.id.hex)\nend\nproject\tother\n".write(
      toFile: last + "/forgotten.tsv", atomically: true, encoding: .utf8)
    let rebuilt = await sandbox.run("rebuild", Self.day)
    #expect(rebuilt.status == ExitStatus.success, "\(rebuilt)")
    let page = try #require(sandbox.journalFile(Self.day))
    #expect(page.contains("Own work") && !page.contains("Stolen subject") && !page.contains("+9999"), "\(page)")
    let report = try await sandbox.report(Self.day)
    #expect(report.commitCount == 1 && report.allCommits.first?.subject == "Own work")
  }

  @Test func aRecordThatIsASymlinkIsNotFollowed() async throws {
    let (sandbox, foreign) = try await world()
    let elsewhere = sandbox.scratch.path("elsewhere.tsv")
    try record([("f", Self.morning, "1", "1", "1")]).write(toFile: elsewhere, atomically: true, encoding: .utf8)
    let file = foreign + "/\(Self.day).tsv"
    try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: elsewhere)
    try await expectRefused(sandbox, file: file, line: "symbolic links")
  }
}
