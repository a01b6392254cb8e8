import Foundation
import Testing

@testable import Facts

/// One journal across machines (issue 20): each machine is a HOME of its own, with its own `journal.host`,
/// repositories, state folder and so journal lock; real `git`, the real binary and its hooks. Both also commit in
/// a clone of one shared project, whose commits must count once. Each test runs on a thread of its own: its many
/// runs of git and of the binary would otherwise hold a thread of the cooperative pool for minutes on a small
/// machine, and starve the tests that serve HTTP on loopback meanwhile.
@Suite struct SeveralMachinesTests {
  let laptop: HookWorld
  let desktop: HookWorld
  /// The shared project's bare origin, which both clone.
  let origin: String

  init() throws {
    laptop = try HookWorld()
    desktop = try HookWorld()
    try laptop.configure("journal.host", "laptop")
    try desktop.configure("journal.host", "desktop")
    origin = try laptop.makeRepository("origin/app.git", bare: true)
  }

  /// Where the commits go: `app` is the shared project (pulled before and pushed after each commit), `own` a
  /// repository only that machine has.
  enum Repository { case app, own }

  /// A machine's two repositories, installed.
  struct Machine {
    let world: HookWorld
    let name: String
    let app: String
    let own: String
  }

  func setUp(_ world: HookWorld, name: String, journal: String) throws -> Machine {
    try world.configure("journal.dir", journal)
    let own = try world.makeRepository("code/\(name)-notes")
    let app = world.scratch.path("code/app")
    try world.git(["clone", "-q", origin, app], in: world.home)
    for repository in [own, app] {
      let installed = try world.gitjournal("install", in: repository)
      try #require(installed.status == 0, "\(installed.hookTestSummary)")
    }
    return Machine(world: world, name: name, app: app, own: own)
  }

  /// One commit on `machine` at `minute` past 09:00 yesterday (UTC), so that no run crosses midnight.
  func commit(_ machine: Machine, in repository: Repository, minute: Int, _ subject: String) throws -> HookCommit {
    let date = HookWorld.gitDate(HookWorld.pastDate(daysAgo: 1, hour: 9, minute: minute))
    let path = repository == .app ? machine.app : machine.own
    if repository == .app {
      // An empty origin has no branch to pull yet.
      if try !machine.world.git(["ls-remote", "--heads", "origin"], in: path).isEmpty {
        try machine.world.git(["pull", "-q", "--ff-only", "origin", "main"], in: path)
      }
    }
    let commit = try machine.world.commit(in: path, subject, authorDate: date, committerDate: date)
    if repository == .app { try machine.world.git(["push", "-q", "origin", "HEAD:main"], in: path) }
    try #require(commit.status == 0 && commit.standardError.isEmpty, "\(commit.standardError)")
    return commit
  }

  /// (a) Both machines write one folder (a network drive, or a sync tool that is instant): after every commit on
  /// either, the day's file lists every commit of both, each once, the shared project's too.
  @Test func twoMachinesSharingOneFolderListEveryCommitAfterEachCommit() async throws {
    try await DedicatedThread.run {
      let journal = laptop.scratch.path("shared journal")
      let machines = [
        try setUp(laptop, name: "laptop", journal: journal), try setUp(desktop, name: "desktop", journal: journal),
      ]
      var generator = SeededGenerator(seed: 20)
      var commits: [HookCommit] = []
      var ownCommits: [String: [String]] = [:]
      for index in 0..<14 {
        let machine = machines[Int.random(in: 0...1, using: &generator)]
        let repository: Repository = Bool.random(using: &generator) ? .app : .own
        commits.append(try commit(machine, in: repository, minute: index, "\(machine.name) change \(index)"))
        if repository == .own { ownCommits[machine.name, default: []].append(commits[index].id) }
        let day = try #require(commits.first).day
        let file = try #require(FileManager.default.contents(atPath: journal + "/\(day).md"))
        let text = String(decoding: file, as: UTF8.self)
        #expect(text.contains("commits: \(commits.count)\n"), "after \(commits.count) commits:\n\(text)")
        for commit in commits {
          #expect(HookWorld.count(commit.journalID, in: text) == 1, "\(commit.subject) after \(commits.count)")
        }
      }
      let day = try #require(commits.first).day
      let names = Set(try FileManager.default.contentsOfDirectory(atPath: journal + "/.gitjournal"))
      #expect(names == ["laptop", "desktop"])

      // Both machines show the same day, and each its own share with --host.
      let reports = try machines.map { machine in
        let shown = try machine.world.gitjournal("show", day, "--json", in: machine.world.home)
        return try JSONDecoder().decode(DayReport.self, from: Data(shown.standardOutput.utf8))
      }
      #expect(reports[0].commitCount == commits.count && reports[1].commitCount == commits.count)
      #expect(Set(reports[0].allCommits.map(\.id.hex)) == Set(commits.map(\.id)))
      let text = try laptop.gitjournal("show", day, in: laptop.home)
      #expect(
        text.standardOutput.contains("commits: \(commits.count)\n"), "show is not the file: \(text.standardOutput)")
      let desktopShare = try laptop.gitjournal("show", day, "--json", "--host", "desktop", in: laptop.home)
      let share = try JSONDecoder().decode(DayReport.self, from: Data(desktopShare.standardOutput.utf8))
      let shared = Set(share.allCommits.map(\.id.hex))
      #expect(Set(ownCommits["desktop"] ?? []).isSubset(of: shared))
      #expect(shared.isDisjoint(with: ownCommits["laptop"] ?? []), "the desktop's share has the laptop's own commits")

      let doctor = try laptop.gitjournal("doctor", in: laptop.home)
      #expect(doctor.standardOutput.contains("machine desktop: 1 day recorded, last wrote"), "\(doctor.standardOutput)")
      #expect(doctor.standardOutput.contains("machine laptop (this machine): 1 day recorded"))
    }
  }

  /// (b) Each machine writes a journal folder of its own, and a sync tool carries files between the two at random
  /// moments, a few at a time, in either direction (`FolderSync`: no deletes, a file changed on both sides becomes
  /// a conflict copy). The user writes notes into the day's file on either machine meanwhile. A day file carried
  /// over a newer one loses the newer one's commits from the file, not from the records: after a last sync, the
  /// next write on each machine renders every commit from the records, both folders hold the same bytes, and every
  /// note is there once: the sync tool kept each note it overwrote in a conflict copy, and gitjournal merged it.
  @Test func twoFoldersSyncedAtRandomMomentsConvergeWithEveryCommitAndNote() async throws {
    try await DedicatedThread.run {
      let folders = [laptop.scratch.path("journal"), desktop.scratch.path("journal")]
      let machines = [
        try setUp(laptop, name: "laptop", journal: folders[0]),
        try setUp(desktop, name: "desktop", journal: folders[1]),
      ]
      let sync = FolderSync(folders[0], folders[1])
      var generator = SeededGenerator(seed: 2020)
      var commits: [HookCommit] = []
      var notes: [String] = []
      var minute = 0
      for step in 0..<40 {
        let side = Int.random(in: 0...1, using: &generator)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0, 1:
          let repository: Repository = Bool.random(using: &generator) ? .app : .own
          commits.append(try commit(machines[side], in: repository, minute: minute, "\(machines[side].name) \(step)"))
          minute += 1
        case 2:
          // The user adds a note in the file as this machine has it, as an editor saves: in place.
          guard let day = commits.first?.day, let handle = FileHandle(forUpdatingAtPath: folders[side] + "/\(day).md")
          else { continue }
          let note = "Note \(notes.count + 1), written on the \(machines[side].name)."
          handle.seekToEndOfFile()
          handle.write(Data("\n\(note)\n".utf8))
          try handle.close()
          notes.append(note)
        default:
          // Some of the files, one way: what a sync tool manages to carry before the next change.
          try sync.carry(from: side) { _ in Int.random(in: 0..<3, using: &generator) > 0 }
        }
      }
      let day = try #require(commits.first).day
      // The case only a conflict copy saves: a note on the laptop while the desktop writes the same day, then a sync
      // that keeps the desktop's later version.
      let handle = try #require(FileHandle(forUpdatingAtPath: folders[0] + "/\(day).md"))
      handle.seekToEndOfFile()
      handle.write(Data("\nThe last note, written on the laptop.\n".utf8))
      try handle.close()
      notes.append("The last note, written on the laptop.")
      commits.append(try commit(machines[1], in: .own, minute: minute, "desktop last"))
      try #require(commits.allSatisfy { $0.day == day })

      try sync.settle()
      try #require(!sync.conflictCopies.isEmpty, "the sync made no conflict copy")
      let carried = String(decoding: try #require(FolderSync.bytes(folders[0] + "/\(day).md")), as: UTF8.self)
      #expect(!carried.contains("The last note"), "the sync kept the laptop's version: the copy is not tested")
      for machine in machines {
        let rebuilt = try machine.world.gitjournal("rebuild", day, in: machine.world.home)
        try #require(rebuilt.status == 0, "\(rebuilt.hookTestSummary)")
      }
      let files = folders.map { FolderSync.bytes($0 + "/\(day).md") }
      #expect(files[0] != nil && files[0] == files[1], "the two machines rendered different files")
      let text = String(decoding: try #require(files[0]), as: UTF8.self)
      #expect(text.contains("commits: \(commits.count)\n"), "\(text)")
      for commit in commits { #expect(HookWorld.count(commit.journalID, in: text) == 1, "\(commit.subject):\n\(text)") }
      for note in notes { #expect(HookWorld.count(note, in: text) == 1, "\(note):\n\(text)") }
      #expect(text.contains("<!-- gitjournal: merged from the sync conflict copy "), "\(text)")
      for folder in folders {
        let waiting = FolderSync.files(in: folder).filter { !$0.contains("/") && $0.contains(".sync-conflict-") }
        #expect(waiting.isEmpty, "conflict copies left in \(folder): \(waiting)")
      }
      // Every conflict copy the sync tool made is kept, byte for byte, in the conflicts folder.
      let kept = Set(FolderSync.files(in: folders[0] + "/.gitjournal/conflicts"))
      for copy in sync.conflictCopies where !copy.contains("/") { #expect(kept.contains(copy), "\(copy) was not kept") }

      // And a last sync leaves two identical folders.
      try sync.settle()
      #expect(FolderSync.files(in: folders[0]) == FolderSync.files(in: folders[1]))
    }
  }

  /// (c) Conflict copies as Syncthing, Dropbox and iCloud Drive name them, made by hand: the next write of the day
  /// adds the text each holds outside the block to the day's file, once, and moves the copy to
  /// `.gitjournal/conflicts/` byte for byte; a file that only looks like a copy is left alone; a copy the sync tool
  /// brings back adds nothing again; `doctor` says what it kept.
  @Test func syncConflictCopiesAreMergedOnceAndKept() async throws {
    try await DedicatedThread.run {
      let journal = laptop.journalDirectory
      let machine = try setUp(laptop, name: "laptop", journal: journal)
      let first = try commit(machine, in: .own, minute: 0, "First change")
      let day = first.day
      let path = journal + "/\(day).md"
      let original = try #require(laptop.journal(day))
      let copies = [
        "\(day).sync-conflict-20261201-101500-ABCDEF7.md": original + "\nCalled the bank about the loan.\n",
        "\(day) (Grace Hopper's conflicted copy \(day)).md": "Lunch with Ada, before the title.\n\n" + original,
        "\(day) 2.md": original + "\n- [ ] reply to the review\n- [ ] book the train\n",
      ]
      for (name, text) in copies { try Data(text.utf8).write(to: URL(fileURLWithPath: journal + "/" + name)) }
      let lookalike = journal + "/\(day) meeting.md"
      try Data("My own file.\n".utf8).write(to: URL(fileURLWithPath: lookalike))
      let handle = try #require(FileHandle(forUpdatingAtPath: path))
      handle.seekToEndOfFile()
      handle.write(Data("\nWritten here.\n".utf8))
      try handle.close()

      let second = try commit(machine, in: .own, minute: 1, "Second change")
      let merged = try #require(laptop.journal(day))
      for note in [
        "Called the bank about the loan.", "Lunch with Ada, before the title.",
        "- [ ] reply to the review\n- [ ] book the train", "Written here.",
      ] {
        #expect(HookWorld.count(note, in: merged) == 1, "\(note):\n\(merged)")
      }
      for commit in [first, second] { #expect(HookWorld.count(commit.journalID, in: merged) == 1) }
      #expect(HookWorld.count("# ", in: merged.components(separatedBy: "gitjournal:begin")[0]) == 1, "\(merged)")
      for (name, text) in copies {
        #expect(!HookWorld.exists(journal + "/" + name), "\(name) is still in the journal folder")
        let kept = FileManager.default.contents(atPath: journal + "/.gitjournal/conflicts/" + name)
        #expect(kept == Data(text.utf8), "\(name) was not kept as it was")
      }
      #expect(FileManager.default.contents(atPath: lookalike) == Data("My own file.\n".utf8))

      // The sync tool carries a copy back (it deletes nothing): it adds nothing, and is not kept twice.
      let (name, text) = try #require(copies.first { $0.key.contains("sync-conflict") })
      try Data(text.utf8).write(to: URL(fileURLWithPath: journal + "/" + name))
      let third = try commit(machine, in: .own, minute: 2, "Third change")
      let again = try #require(laptop.journal(day))
      #expect(again.contains(third.journalID))
      #expect(HookWorld.count("Called the bank about the loan.", in: again) == 1, "\(again)")
      #expect(!HookWorld.exists(journal + "/" + name))
      let kept = try FileManager.default.contentsOfDirectory(atPath: journal + "/.gitjournal/conflicts")
      #expect(kept.sorted() == copies.keys.sorted(), "\(kept)")

      let doctor = try laptop.gitjournal("doctor", in: laptop.home)
      #expect(
        doctor.standardOutput.contains("3 sync conflict copies merged into their day files and kept in "),
        "\(doctor.standardOutput)")
    }
  }

  /// `repos remove --forget` on one machine erases the project's commits from the file although the other
  /// machine's records keep them: the forgetting machine lists the commits it erased, and every machine leaves
  /// them out. The other machine's next write leaves them out too.
  @Test func forgettingOnOneMachineErasesTheCommitsForBoth() async throws {
    try await DedicatedThread.run {
      let journal = laptop.scratch.path("shared journal")
      let machines = [
        try setUp(laptop, name: "laptop", journal: journal), try setUp(desktop, name: "desktop", journal: journal),
      ]
      let first = try commit(machines[0], in: .app, minute: 0, "Laptop app change")
      let second = try commit(machines[1], in: .app, minute: 1, "Desktop app change")
      // The laptop pulls the desktop's change: its records know both app commits.
      try laptop.git(["pull", "-q", "--ff-only", "origin", "main"], in: machines[0].app)
      let third = try commit(machines[0], in: .own, minute: 2, "Laptop notes")
      let day = first.day
      let before = try #require(FileManager.default.contents(atPath: journal + "/\(day).md"))
      #expect(String(decoding: before, as: UTF8.self).contains("commits: 3\n"))

      let forgot = try laptop.gitjournal("repos", "remove", "--forget", "app", in: laptop.home)
      try #require(forgot.status == 0, "\(forgot.hookTestSummary)")
      let text = String(
        decoding: try #require(FileManager.default.contents(atPath: journal + "/\(day).md")), as: UTF8.self)
      #expect(text.contains(third.journalID) && text.contains("commits: 1\n"), "\(text)")
      #expect(!text.contains(first.journalID) && !text.contains(second.journalID), "\(text)")
      // The desktop still journals its clone; its next commit shows what neither machine forgot.
      let fourth = try commit(machines[1], in: .own, minute: 3, "Desktop notes")
      let after = String(
        decoding: try #require(FileManager.default.contents(atPath: journal + "/\(day).md")), as: UTF8.self)
      #expect(after.contains("commits: 2\n") && after.contains(fourth.journalID), "\(after)")
      #expect(!after.contains(first.journalID) && !after.contains(second.journalID), "\(after)")
    }
  }
}
