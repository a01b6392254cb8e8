import Foundation
import Testing

@testable import Facts
@testable import Journal
@testable import Support

extension Reliability {
  /// gitjournal killed with SIGKILL while it rewrites journal files: each file is then the old or the new
  /// version, never a mix or a truncated one; the next run finishes the job and removes what the killed one left;
  /// and a lock held by a killed process never blocks the next writer.
  @Suite struct CrashTests {
    static let email = TemporaryRepository.email
    static let dayCount = 6
    static let firstDay = Day(year: 2026, month: 1, day: 5)
    static var lastDay: Day { firstDay.adding(days: dayCount - 1) }

    /// A sandbox with one repository holding three commits on each of `dayCount` days, journaled by one rebuild.
    static func makeJournal() throws -> (JournalSandbox, TemporaryRepository) {
      let sandbox = try JournalSandbox()
      let repository = try sandbox.makeRepository("app")
      var script = FastImportScript()
      let start = JournalFixtures.calendar.window(of: firstDay).start
      for offset in 0..<dayCount {
        for (slot, hour) in [9, 11, 15].enumerated() {
          let time = start + Int64(offset * 86_400 + hour * 3_600)
          script.commit(
            branch: "main", email: email, authorTime: time, committerTime: time, zone: "+0000",
            message: "Day \(offset) change \(slot)\n",
            changes: [
              .write(path: "notes/day-\(offset)-\(slot).txt", content: "line\n" + String(repeating: "x\n", count: slot))
            ])
        }
      }
      try repository.importHistory(script)
      try sandbox.register(repository)
      return (sandbox, repository)
    }

    static var rebuildArguments: [String] {
      ["rebuild", "--since", firstDay.description, "--until", lastDay.description, "--no-narrative"]
    }

    /// Several KB of the user's own notes for one day: a partial write cannot go unnoticed.
    static func notes(day: Int, position: String) -> String {
      (0..<100).map { "Note \(position) \(day).\($0): something I wrote by hand and must keep." }.joined(
        separator: "\n")
        + "\n"
    }

    @Test func killedRebuildsLeaveEachFileOldOrNew() throws {
      let (sandbox, _) = try Self.makeJournal()
      let binary = try BinaryRunner.executable()
      let environment = sandbox.binaryEnvironment
      let first = try sandbox.runBinary(
        "rebuild", "--since", Self.firstDay.description, "--until", Self.lastDay.description)
      try #require(first.status == 0, "\(first)")

      // The new version of each file holds the user's notes; the old one differs in a front-matter value that
      // gitjournal owns, so every run rewrites every file.
      var newVersions: [String: String] = [:]
      var oldVersions: [String: String] = [:]
      for offset in 0..<Self.dayCount {
        let name = "\(Self.firstDay.adding(days: offset)).md"
        let path = sandbox.journalDirectory + "/" + name
        let generated = try String(contentsOfFile: path, encoding: .utf8)
        let begin = try #require(generated.range(of: JournalMerger.beginPrefix))
        let withNotes =
          generated[..<begin.lowerBound] + Self.notes(day: offset, position: "above") + "\n"
          + generated[begin.lowerBound...] + "\n" + Self.notes(day: offset, position: "below")
        newVersions[name] = withNotes
        let old = withNotes.replacingOccurrences(of: "\ncommits: 3\n", with: "\ncommits: 0\n")
        try #require(old != withNotes)
        oldVersions[name] = old
      }
      func writeAll(_ versions: [String: String]) throws {
        for (name, text) in versions {
          try Data(text.utf8).write(to: URL(fileURLWithPath: sandbox.journalDirectory + "/" + name))
        }
      }
      func leftovers() -> [String] { sandbox.journalFolderNames().filter { $0.contains(AtomicFile.temporaryMarker) } }

      // A complete run turns every old file into its new version; its duration bounds the moments to kill at.
      try writeAll(oldVersions)
      var fullRun = 0.0
      for _ in 0..<2 {
        try writeAll(oldVersions)
        let child = try ChildProcess(
          binary, Self.rebuildArguments, environment: environment, currentDirectory: sandbox.home)
        let status = child.wait(timeout: 60)
        fullRun = max(fullRun, Date().timeIntervalSince(child.startedAt))
        try #require(status == 0)
        for (name, text) in newVersions {
          try #require(sandbox.journalFile(String(name.dropLast(3))) == text, "\(name)")
        }
      }

      let lockPath = sandbox.stateHome + "/gitjournal/journal.lock"
      var random = SeededGenerator(seed: 7)
      let wanted = 30
      var kills = 0
      var passed = 0
      var dataLost = 0
      var midRebuild = 0
      var withLeftovers = 0
      var whileLocked = 0
      var attempts = 0
      while kills < wanted && attempts < wanted * 10 {
        attempts += 1
        try writeAll(oldVersions)
        let child = try ChildProcess(
          binary, Self.rebuildArguments, environment: environment, currentDirectory: sandbox.home)
        let delay = Double.random(in: 0...fullRun, using: &random)
        usleep(useconds_t(max(0, delay - Date().timeIntervalSince(child.startedAt)) * 1_000_000))
        let heldLock = FileLocks.isHeld(lockPath, by: child.pid)
        guard child.kill() else { continue }
        kills += 1

        var old = 0
        var new = 0
        var broken: [String] = []
        for (name, newText) in newVersions {
          let text = sandbox.journalFile(String(name.dropLast(3)))
          if text == newText {
            new += 1
          } else if text == oldVersions[name] {
            old += 1
          } else {
            broken.append(name)
          }
        }
        #expect(broken.isEmpty, "kill \(kills) after \(delay) s left partial files: \(broken)")
        if old > 0 && new > 0 { midRebuild += 1 }
        if !leftovers().isEmpty { withLeftovers += 1 }
        if heldLock { whileLocked += 1 }

        // The next run is not held up by the dead one's lock, and repairs everything.
        let next = try ChildProcess(
          binary, Self.rebuildArguments, environment: environment, currentDirectory: sandbox.home)
        let status = next.wait(timeout: 30)
        #expect(status == 0, "the run after kill \(kills) \(status == nil ? "was blocked" : "failed")")
        let repaired = newVersions.allSatisfy { sandbox.journalFile(String($0.key.dropLast(3))) == $0.value }
        #expect(repaired, "the run after kill \(kills) did not restore the files")
        #expect(leftovers().isEmpty, "left after the run that followed kill \(kills): \(leftovers())")
        if broken.isEmpty && repaired && status == 0 && leftovers().isEmpty { passed += 1 }
        if !broken.isEmpty || !repaired { dataLost += 1 }
      }
      #expect(kills == wanted, "only \(kills) of \(attempts) children were still running when killed")
      print(
        "reliability | crash: \(kills) kills (\(midRebuild) between two files, \(withLeftovers) with a temporary file "
          + "left, \(whileLocked) holding the journal lock); a full run takes \(fullRun) s")
      ReliabilityTable.record("crash: SIGKILL during rebuild", tried: kills, passed: passed, dataLost: dataLost)
    }

    /// What a writer killed between creating its temporary file and renaming it leaves behind is removed by the
    /// next writer of that file, and never mistaken for the journal.
    @Test func leftoversOfAKilledWriterAreRemovedByTheNextRun() throws {
      let (sandbox, _) = try Self.makeJournal()
      let first = try sandbox.runBinary(
        "rebuild", "--since", Self.firstDay.description, "--until", Self.lastDay.description)
      try #require(first.status == 0, "\(first)")
      let day = Self.firstDay.adding(days: 3).description
      let before = try #require(sandbox.journalFile(day))
      let leftover =
        sandbox.journalDirectory
        + "/.\(day).md\(AtomicFile.temporaryMarker)\(AtomicFile.lockedSuffix)-\(HostName.current)"
      try Data("---\ndate: 20".utf8).write(to: URL(fileURLWithPath: leftover))

      let show = try sandbox.runBinary("show", day)
      #expect(show.status == 0)
      #expect(show.standardOutput.contains("Day 3 change 2"), "\(show)")
      let next = try sandbox.runBinary("rebuild", day, "--no-narrative")
      #expect(next.status == 0, "\(next)")
      #expect(!HookWorld.exists(leftover), "the killed writer's temporary file is still there")
      #expect(sandbox.journalFile(day) == before)
      ReliabilityTable.record(
        "crash: leftover temporary file", tried: 1, passed: HookWorld.exists(leftover) ? 0 : 1, dataLost: 0)
    }

    /// A process holds the journal lock and hangs, as a gitjournal stopped with Ctrl-Z or hung on a network mount
    /// would: a second writer waits for it, which shows the lock is real, and goes on at once when the holder is
    /// killed, since the kernel releases a flock with its holder. A FIFO in place of a day's file hangs nobody:
    /// `rebuild` refuses it at once, saying what it is.
    @Test func lockOfAKilledWriterNeverBlocksTheNextOne() throws {
      let (sandbox, _) = try Self.makeJournal()
      let binary = try BinaryRunner.executable()
      let environment = sandbox.binaryEnvironment
      let fifoDay = Self.firstDay.description
      let otherDay = Self.firstDay.adding(days: 1).description
      let holder = try LockHolder(sandbox.stateHome + "/gitjournal/journal.lock")
      defer { holder.release() }

      let waiting = try ChildProcess(
        binary, ["rebuild", otherDay, "--no-narrative"], environment: environment, currentDirectory: sandbox.home)
      defer { waiting.kill() }
      usleep(500_000)
      #expect(waiting.isRunning, "the second writer did not wait for the lock")
      #expect(sandbox.journalFile(otherDay) == nil)

      let killedAt = Date()
      holder.release()
      let status = waiting.wait(timeout: 10)
      let waited = Date().timeIntervalSince(killedAt)
      #expect(status == 0, "the second writer \(status == nil ? "was still blocked after 10 s" : "failed")")
      #expect(waited < 5, "the second writer took \(waited) s after the kill")
      #expect(sandbox.journalFile(otherDay)?.contains("Day 1 change 2") == true)

      try FileManager.default.createDirectory(atPath: sandbox.journalDirectory, withIntermediateDirectories: true)
      let fifo = sandbox.journalDirectory + "/\(fifoDay).md"
      try #require(mkfifo(fifo, 0o644) == 0)
      let refusing = try Subprocess(
        binary, ["rebuild", fifoDay, "--no-narrative"], environment: environment, currentDirectory: sandbox.home)
      let finished = refusing.finishes(within: 10)
      if !finished {
        // A reader stuck opening the FIFO is let go by a writer that opens it and closes it at once.
        let writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if writer >= 0 { close(writer) }
      }
      let refused = try refusing.wait()
      #expect(finished, "rebuild of a day whose file is a FIFO hung")
      #expect(
        refused.status == 1 && refused.standardError.contains("\(fifo): it is a FIFO"), "\(refused.hookTestSummary)")
      try FileManager.default.removeItem(atPath: fifo)
      let after = try sandbox.runBinary("rebuild", fifoDay, "--no-narrative")
      #expect(after.status == 0, "\(after)")
      #expect(sandbox.journalFile(fifoDay)?.contains("Day 0 change 0") == true)
      ReliabilityTable.record(
        "crash: lock of a killed writer", tried: 1, passed: status == 0 && waited < 5 ? 1 : 0, dataLost: 0)
    }
  }
}
