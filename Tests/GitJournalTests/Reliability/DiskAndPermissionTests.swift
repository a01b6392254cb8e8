import Foundation
import Testing

@testable import Journal
@testable import Support

extension Reliability {
  /// A journal folder that cannot be written, a full disk and a missing config folder: a clear error that names
  /// the folder, nothing lost (the old file intact, the commits journaled once the problem is gone), and the
  /// commit itself unaffected.
  @Suite struct DiskAndPermissionTests {
    let world: HookWorld

    init() throws {
      world = try HookWorld()
    }

    /// A repository with the hooks installed, one commit journaled, and the user's notes around the block.
    func journaledRepository() throws -> (repository: String, day: String, file: String) {
      let repository = try world.makeRepository("code/app")
      let installed = try world.gitjournal("install", in: repository)
      try #require(installed.status == 0, "\(installed.hookTestSummary)")
      let first = try world.commit(in: repository, "Before anything went wrong")
      let file = world.journalDirectory + "/\(first.day).md"
      try addNotes(to: file)
      return (repository, first.day, file)
    }

    static let notesAbove = "My notes, above the block.\n\n"
    static let notesBelow = "\nMy notes, below the block.\n"

    /// Puts the user's notes just above and below the managed block.
    func addNotes(to file: String) throws {
      let text = try String(contentsOfFile: file, encoding: .utf8)
      let begin: Range<String.Index> = try #require(text.range(of: JournalMerger.beginPrefix))
      let noted =
        String(text[..<begin.lowerBound]) + Self.notesAbove + String(text[begin.lowerBound...]) + Self.notesBelow
      try Data(noted.utf8).write(to: URL(fileURLWithPath: file))
    }

    /// Whether both notes are where the user put them.
    static func notesAreIntact(_ journal: String) -> Bool {
      journal.contains("\n" + notesAbove + JournalMerger.beginPrefix) && journal.hasSuffix(notesBelow)
        && HookWorld.count(notesAbove, in: journal) == 1 && HookWorld.count(notesBelow, in: journal) == 1
    }

    /// Stages a new file and runs `git commit` (unprivileged when `unprivileged`); the commit must succeed.
    func commit(_ subject: String, in repository: String, unprivileged: Bool = false) throws -> ProcessResult {
      try Data("\(subject)\n".utf8).write(to: URL(fileURLWithPath: repository + "/\(UUID().uuidString).txt"))
      try world.git(["add", "-A"], in: repository)
      var command = (executable: Subprocess.gitExecutable, arguments: ["commit", "-q", "-m", subject])
      if unprivileged { command = try #require(WithoutPrivileges.command(command.executable, command.arguments)) }
      return try world.run(command.executable, command.arguments, in: repository)
    }

    var hookLog: String {
      FileManager.default.contents(atPath: world.hookLogPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Expects every one of `subjects` listed once in `journal` and the notes intact, and records the case:
    /// passed when that holds and the file was `unchanged` while the fault lasted.
    func expectNothingLost(_ name: String, journal: String, subjects: [String], unchanged: Bool) {
      let kept = subjects.filter { HookWorld.count(" \($0) (", in: journal) == 1 }.count
      #expect(kept == subjects.count, "\(journal)")
      let notes = Self.notesAreIntact(journal)
      #expect(notes, "\(journal)")
      let passed = unchanged && kept == subjects.count && notes
      ReliabilityTable.record(name, tried: 1, passed: passed ? 1 : 0, dataLost: passed ? 0 : 1)
    }

    func temporaryFiles(in folder: String) -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
        $0.contains(AtomicFile.temporaryMarker)
      }
    }

    @Test(.enabled(if: WithoutPrivileges.isAvailable, Comment(rawValue: WithoutPrivileges.unavailableReason)))
    func journalFolderThatCannotBeWritten() throws {
      let (repository, day, file) = try journaledRepository()
      let before = try #require(FileManager.default.contents(atPath: file))
      try #require(chmod(world.journalDirectory, 0o555) == 0)
      defer { chmod(world.journalDirectory, 0o755) }

      let blocked = try commit("While the journal folder is read-only", in: repository, unprivileged: true)
      #expect(blocked.status == 0, "\(blocked.hookTestSummary)")
      let lines = blocked.standardError.split(separator: "\n")
      #expect(lines.count == 1 && lines.first?.contains(world.hookLogPath) == true, "\(blocked.standardError)")
      let reason = "cannot create a file in \(world.journalDirectory): Permission denied"
      #expect(hookLog.contains("post-commit: " + reason), "\(hookLog)")
      // The file now lacks a commit: rebuild has something to write, and cannot.
      let command = try #require(WithoutPrivileges.command(world.binary, ["rebuild", "--no-narrative"]))
      let rebuild = try world.run(command.executable, command.arguments, in: repository)
      #expect(rebuild.status == 1, "\(rebuild.hookTestSummary)")
      #expect(rebuild.standardError.hasSuffix("error: \(reason)\n"), "\(rebuild.standardError)")

      let unchanged = FileManager.default.contents(atPath: file) == before
      #expect(unchanged, "the journal file changed")
      #expect(temporaryFiles(in: world.journalDirectory).isEmpty)

      chmod(world.journalDirectory, 0o755)
      let after = try commit("After the folder is writable again", in: repository)
      #expect(after.status == 0 && after.standardError.isEmpty, "\(after.hookTestSummary)")
      let journal = try #require(world.journal(day))
      expectNothingLost(
        "disk: journal folder not writable", journal: journal,
        subjects: [
          "Before anything went wrong", "While the journal folder is read-only", "After the folder is writable again",
        ], unchanged: unchanged)
    }

    @Test(.enabled(if: TmpfsMount.availability.isAvailable, Comment(rawValue: TmpfsMount.availability.reason)))
    func fullDisk() throws {
      let mountPoint = try world.scratch.makeFolder("small-disk")
      let disk = try TmpfsMount(at: mountPoint, kilobytes: 64)
      defer { disk.unmount() }
      let journalFolder = mountPoint + "/journal"
      try world.configure("journal.dir", journalFolder)
      let repository = try world.makeRepository("code/app")
      try #require(try world.gitjournal("install", in: repository).status == 0)
      let first = try world.commit(in: repository, "Before the disk filled up")
      let file = journalFolder + "/\(first.day).md"
      try addNotes(to: file)
      let before = try #require(FileManager.default.contents(atPath: file))
      try disk.fill(file: "filler")

      let full = try commit("While the disk is full", in: repository)
      #expect(full.status == 0, "\(full.hookTestSummary)")
      #expect(full.standardError.split(separator: "\n").count == 1, "\(full.standardError)")
      // The day's record is written first (a machine that renders the day next must find it): it is what fails.
      let record = journalFolder + "/.gitjournal/\(HostName.current)/\(first.day).tsv"
      let reason = "cannot write \(record): No space left on device"
      #expect(hookLog.contains("post-commit: " + reason), "\(hookLog)")
      let rebuild = try world.gitjournal("rebuild", "--no-narrative", in: repository)
      #expect(rebuild.status == 1, "\(rebuild.hookTestSummary)")
      #expect(rebuild.standardError.hasSuffix("error: \(reason)\n"), "\(rebuild.standardError)")
      let unchanged = FileManager.default.contents(atPath: file) == before
      #expect(unchanged, "the journal file changed on a full disk")
      #expect(temporaryFiles(in: journalFolder).isEmpty, "\(temporaryFiles(in: journalFolder))")

      try FileManager.default.removeItem(atPath: mountPoint + "/filler")
      let after = try commit("After space was freed", in: repository)
      #expect(after.status == 0 && after.standardError.isEmpty, "\(after.hookTestSummary)")
      let journal = try String(contentsOfFile: file, encoding: .utf8)
      expectNothingLost(
        "disk: full disk (64 KiB tmpfs)", journal: journal,
        subjects: ["Before the disk filled up", "While the disk is full", "After space was freed"],
        unchanged: unchanged)
    }

    /// No config folder at all: gitjournal journals the repository it runs in. A config folder deleted after
    /// install makes the hook do nothing but log one line: it reads only the config install recorded, never the
    /// current repository with defaults. A config folder that cannot be created stops `install` with an error
    /// naming the file, before any hook is put in.
    @Test func missingConfigFolder() throws {
      try FileManager.default.removeItem(atPath: world.home + "/.config")
      let repository = try world.makeRepository("code/app")
      let plain = try world.commit(in: repository, "Committed before any config")
      // The default engine is ollama: point it at a loopback port where nothing listens.
      let refusing = try refusingLoopbackAddress()
      let rebuild = try world.run(world.binary, ["rebuild", "--no-narrative"], in: repository)
      #expect(rebuild.status == 0, "\(rebuild.hookTestSummary)")
      #expect(world.journal(plain.day).map { HookWorld.count(plain.journalID, in: $0) } == 1)
      #expect(!HookWorld.exists(world.home + "/.config"), "a read-only command created the config folder")

      let installed = try world.gitjournal("install", in: repository)
      #expect(installed.status == 0, "\(installed.hookTestSummary)")
      try FileManager.default.removeItem(atPath: world.home + "/.config")
      try Data("x\n".utf8).write(to: URL(fileURLWithPath: repository + "/after.txt"))
      try world.git(["add", "-A"], in: repository)
      let result = try world.gitResult(
        ["commit", "-q", "-m", "Committed after the config folder was deleted"], in: repository,
        environment: ["OLLAMA_HOST": refusing])
      #expect(result.status == 0 && result.standardError.isEmpty, "\(result.hookTestSummary)")
      let after = try world.describe("HEAD", in: repository)
      #expect(world.journal(after.day).map { HookWorld.count(after.journalID, in: $0) } != 1, "journaled anyway")
      let log = world.hookLogLines()
      #expect(log.count == 1 && log.first?.contains(world.configPath) == true, "\(log)")

      // XDG_CONFIG_HOME below a regular file: the config folder cannot be made.
      let other = try world.makeRepository("code/other")
      try Data("not a folder\n".utf8).write(to: URL(fileURLWithPath: world.home + "/blocker"))
      let configHome = world.home + "/blocker/config"
      let refused = try world.run(world.binary, ["install"], in: other, environment: ["XDG_CONFIG_HOME": configHome])
      #expect(refused.status == 1, "\(refused.hookTestSummary)")
      #expect(refused.standardError.contains(configHome + "/gitjournal/config"), "\(refused.standardError)")
      #expect(refused.standardError.split(separator: "\n").count == 1, "\(refused.standardError)")
      #expect(!HookWorld.exists(other + "/.git/hooks/post-commit"), "a hook was installed although the config failed")
      ReliabilityTable.record(
        "disk: config folder missing or not creatable", tried: 3,
        passed: [rebuild.status == 0, result.status == 0, refused.status == 1].filter { $0 }.count, dataLost: 0)
    }

    /// A loopback `host:port` on which nothing listens.
    func refusingLoopbackAddress() throws -> String {
      let counter = try ConnectionCounter()
      let port = counter.port
      _ = consume counter
      return "127.0.0.1:\(port)"
    }
  }
}
