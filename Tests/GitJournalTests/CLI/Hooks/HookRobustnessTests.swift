import Foundation
import Testing

@testable import CLI
@testable import Journal
@testable import Support

/// The hook never fails or disturbs the git command: odd paths, concurrent commits, a missing binary and a
/// broken repository.
@Suite struct HookRobustnessTests {
  let world: HookWorld

  init() throws {
    world = try HookWorld()
  }

  /// A folder name every shell quoting mistake trips over.
  static let awkwardName = #"it's "quoted" $HOME `touch pwned` & ; dir"#

  @Test func pathsWithShellMetacharacters() throws {
    let repository = try world.makeRepository("code/" + Self.awkwardName)
    // The hook records the binary's path: put the binary in an awkward folder too, and off PATH, so only a
    // correctly quoted path reaches it.
    let binary = try world.copyBinary(to: "bin " + Self.awkwardName + "/gitjournal")
    let marker = world.scratch.path("foreign ran")
    let foreign = repository + "/.git/hooks/post-commit"
    try Data("#!/bin/sh\necho ran >> \(HookWorld.shellQuoted(marker))\n".utf8).write(to: URL(fileURLWithPath: foreign))
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: foreign)

    let installed = try world.gitjournal("install", in: repository, binary: binary)
    try #require(installed.status == 0, "\(installed.hookTestSummary)")
    #expect(world.journaledPaths() == [repository])
    let hook = try String(contentsOfFile: foreign, encoding: .utf8)
    #expect(hook.contains(HookScript.shellQuoted(binary)))

    let commit = try world.commit(in: repository, "Commit in an awkward folder")
    #expect(commit.standardError.isEmpty, "\(commit.standardError)")
    let journal = try #require(world.journal(commit.day), "the hook did not reach the binary")
    #expect(HookWorld.count(commit.journalID, in: journal) == 1)
    #expect(FileManager.default.contents(atPath: marker) == Data("ran\n".utf8), "the chained hook did not run once")
    // Nothing was executed out of the folder names.
    #expect(!HookWorld.exists(repository + "/pwned"))
    #expect(!HookWorld.exists(world.home + "/pwned"))

    let removed = try world.gitjournal("uninstall", in: repository, binary: binary)
    #expect(removed.status == 0, "\(removed.hookTestSummary)")
    #expect(try String(contentsOfFile: foreign, encoding: .utf8).contains("echo ran"))
    #expect(world.journaledPaths().isEmpty)
  }

  @Test func concurrentCommitsInFourRepositories() throws {
    let names = ["alpha", "beta", "gamma", "delta"]
    // One author instant for all: every commit lands in the same day's file whenever the test runs.
    let authorDate = HookWorld.gitDate(Date())
    var repositories: [String] = []
    var day = ""
    for name in names {
      let repository = try world.makeRepository("code/" + name)
      try #require(try world.gitjournal("install", in: repository).status == 0)
      day = try world.commit(in: repository, "\(name) initial", authorDate: authorDate).day
      repositories.append(repository)
    }

    // The user's notes around the managed block.
    let file = world.journalDirectory + "/\(day).md"
    var lines = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\n")
    let begin = try #require(lines.firstIndex { $0.hasPrefix(JournalMerger.beginPrefix) })
    lines.insert(contentsOf: ["Notes before the block: standup at 10.", ""], at: begin)
    try Data((lines.joined(separator: "\n") + "\nNotes after the block: call the bank.\n").utf8).write(
      to: URL(fileURLWithPath: file))

    let script = "for i in 1 2 3 4 5; do git commit -q --allow-empty -m \"$0 commit $i\" || exit 1; done"
    var environment = world.environment
    environment["GIT_AUTHOR_DATE"] = authorDate
    let processes = try zip(names, repositories).map { name, repository in
      try Subprocess("/bin/sh", ["-c", script, name], environment: environment, currentDirectory: repository)
    }
    for (name, process) in zip(names, processes) {
      let result = try process.wait()
      #expect(result.status == 0, "\(name): \(result.hookTestSummary)")
      #expect(result.standardError.isEmpty, "\(name): \(result.standardError)")
    }

    let journal = try #require(world.journal(day))
    var total = 0
    for repository in repositories {
      let ids = try world.revisions("HEAD", in: repository)
      #expect(ids.count == 6)
      for id in ids {
        total += 1
        #expect(HookWorld.count("`\(id.prefix(7))`", in: journal) == 1, "\(id) not listed once in\n\(journal)")
      }
    }
    #expect(total == 24)
    #expect(journal.contains("commits: 24\n"), "\(journal)")
    #expect(HookWorld.count("Notes before the block: standup at 10.\n", in: journal) == 1)
    #expect(HookWorld.count("Notes after the block: call the bank.\n", in: journal) == 1)
    let notesBefore = try #require(journal.range(of: "Notes before the block"))
    let notesAfter = try #require(journal.range(of: "Notes after the block"))
    let blockBegin = try #require(journal.range(of: JournalMerger.beginPrefix))
    let blockEnd = try #require(journal.range(of: JournalMerger.endPrefix))
    #expect(notesBefore.upperBound < blockBegin.lowerBound)
    #expect(blockEnd.upperBound < notesAfter.lowerBound)
    #expect(HookWorld.count(JournalMerger.beginPrefix, in: journal) == 1)
    let leftovers = world.journalFolderNames().filter { $0.contains(AtomicFile.temporaryMarker) }
    #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    #expect(!HookWorld.exists(world.hookLogPath), "the hook logged problems")
  }

  /// The concurrency test above rarely hits the window in which one hook has read the repositories and
  /// another writes before it: here that window is forced open. While the test holds the journal lock, a hook
  /// runs for repository A, and repository B gets a commit whose own hook does not run; when the lock is
  /// released, A's hook must write what the repositories hold then, B's commit included, not what it may have
  /// read before it had the lock.
  @Test func hookReadsTheRepositoriesWhileHoldingTheJournalLock() throws {
    let first = try world.makeRepository("code/first")
    let second = try world.makeRepository("code/second")
    for repository in [first, second] {
      try #require(try world.gitjournal("install", in: repository).status == 0)
      try world.commit(in: repository, "Initial commit")
    }

    let lockPath = world.home + "/.local/state/gitjournal/journal.lock"
    let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    try #require(flock(descriptor, LOCK_EX) == 0)
    let blocked = try Subprocess(
      Subprocess.gitExecutable, ["commit", "--allow-empty", "-m", "Commit in the first repository"],
      environment: world.environment, currentDirectory: first)
    // Time for the hook to read the repositories, if it does so before taking the lock.
    Thread.sleep(forTimeInterval: 0.5)
    let committed = Result {
      try world.commit(
        in: second, "Commit whose hook does not run", configuration: ["core.hooksPath": world.scratch.path("no-hooks")])
    }
    flock(descriptor, LOCK_UN)
    let result = try blocked.wait()
    let unhooked = try committed.get()
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty, "\(result.standardError)")

    let blockedCommit = try world.describe("HEAD", in: first)
    let journal = try #require(world.journal(blockedCommit.day))
    #expect(HookWorld.count(blockedCommit.journalID, in: journal) == 1)
    if unhooked.day == blockedCommit.day {
      #expect(
        HookWorld.count(unhooked.journalID, in: journal) == 1,
        "the hook wrote what it read before it held the lock:\n\(journal)")
    }
  }

  /// A hook that cannot finish (here: the journal lock held for longer than the hook's deadline, standing for a
  /// damaged repository that keeps libgit2 busy) ends at its deadline with one line in the log and one on the
  /// terminal, and the commit succeeds. The lock wait alone would have ended it later, with another line.
  @Test func hookEndsAtItsDeadlineWithOneLine() throws {
    let repository = try world.makeRepository("code/app")
    try #require(try world.gitjournal("install", in: repository).status == 0)
    try world.commit(in: repository, "Initial commit")

    let lockPath = world.home + "/.local/state/gitjournal/journal.lock"
    let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    try #require(flock(descriptor, LOCK_EX) == 0)
    defer { flock(descriptor, LOCK_UN) }
    let result = try world.run(
      Subprocess.gitExecutable, ["commit", "--allow-empty", "-m", "A commit whose hook cannot finish"],
      in: repository, environment: ["GITJOURNAL_HOOK_DEADLINE": "1"])

    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("gitjournal: gave up after 1 s; see \(world.hookLogPath)"))
    let log = world.hookLogLines()
    #expect(log.count == 1, "\(log)")
    #expect(log.first?.contains("post-commit: gave up after 1 s") == true, "\(log)")
    #expect(!log.contains { $0.contains("journal lock") }, "the lock's own wait ended the hook: \(log)")
  }

  @Test func hookIsQuietWhenTheBinaryIsGone() throws {
    let repository = try world.makeRepository("code/app")
    let binary = try world.copyBinary(to: "opt/gitjournal/gitjournal")
    let installed = try world.gitjournal("install", in: repository, binary: binary)
    try #require(installed.status == 0, "\(installed.hookTestSummary)")
    let hook = repository + "/.git/hooks/post-commit"
    try #require(try String(contentsOfFile: hook, encoding: .utf8).contains(binary))
    try FileManager.default.removeItem(atPath: binary)
    for folder in world.searchPath.split(separator: ":") {
      try #require(!HookWorld.exists(folder + "/gitjournal"), "a gitjournal is on PATH in \(folder)")
    }

    let commit = try world.gitResult(["commit", "--allow-empty", "-m", "After removing gitjournal"], in: repository)
    #expect(commit.status == 0)
    #expect(commit.standardError.isEmpty, "\(commit.standardError)")
    let amend = try world.gitResult(["commit", "--amend", "--allow-empty", "-m", "Amended"], in: repository)
    #expect(amend.status == 0)
    #expect(amend.standardError.isEmpty, "\(amend.standardError)")

    // git ignores a post-commit's status; other callers of the hook do not: it must exit 0 too.
    for (name, arguments) in [("post-commit", [String]()), ("post-rewrite", ["rebase"])] {
      let direct = try world.run(repository + "/.git/hooks/" + name, arguments, in: repository)
      #expect(direct.status == 0, "\(name): \(direct.hookTestSummary)")
      #expect(direct.standardOutput.isEmpty && direct.standardError.isEmpty, "\(name): \(direct.hookTestSummary)")
    }
  }

  @Test func brokenRepositoryAmongTheConfiguredOnes() throws {
    var repositories: [String: String] = [:]
    for name in ["app", "gone", "docs"] {
      let repository = try world.makeRepository("code/" + name)
      try #require(try world.gitjournal("install", in: repository).status == 0)
      repositories[name] = repository
    }
    let docs = try world.commit(in: repositories["docs"]!, "Document the hook")
    try world.commit(in: repositories["gone"]!, "Soon deleted")
    try world.commit(in: repositories["app"]!, "First app commit")
    try FileManager.default.removeItem(atPath: repositories["gone"]!)

    let commit = try world.commit(in: repositories["app"]!, "Commit while a repository is missing")
    #expect(commit.status == 0)
    let errorLines = commit.standardError.split(separator: "\n", omittingEmptySubsequences: false).filter {
      !$0.isEmpty
    }
    #expect(errorLines.count <= 1, "\(commit.standardError)")
    let journal = try #require(world.journal(commit.day))
    #expect(HookWorld.count(commit.journalID, in: journal) == 1)
    if docs.day == commit.day {
      #expect(HookWorld.count(docs.journalID, in: journal) == 1, "the other healthy repository was dropped")
    }

    let log = try #require(
      FileManager.default.contents(atPath: world.hookLogPath).map { String(decoding: $0, as: UTF8.self) },
      "no hook log at \(world.hookLogPath)")
    #expect(log.contains(repositories["gone"]!), "\(log)")
    #expect(log.contains("does not exist"), "\(log)")
    if let line = errorLines.first { #expect(line.contains(world.hookLogPath), "\(line)") }
  }

  /// The day `date` falls on in UTC, as the journal names its file.
  static func utcDay(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }

  /// The day's file is a FIFO nobody writes to (or a device, a socket): opening it for reading would block until
  /// a writer comes, and the commit with it. The hook leaves it alone, says so in one line of its log, and the
  /// commit returns at once.
  @Test func fifoAsTheDayFileNeverHangsTheCommit() async throws {
    try await DedicatedThread.run {
      let repository = try world.makeRepository("code/app")
      try #require(try world.gitjournal("install", in: repository).status == 0)
      let now = Date()
      let fifo = world.journalDirectory + "/\(Self.utcDay(now)).md"
      try FileManager.default.createDirectory(atPath: world.journalDirectory, withIntermediateDirectories: true)
      try #require(mkfifo(fifo, 0o644) == 0)
      try Data("change\n".utf8).write(to: URL(fileURLWithPath: repository + "/change.txt"))
      try world.git(["add", "-A"], in: repository)

      let commit = try Subprocess(
        Subprocess.gitExecutable, ["commit", "-q", "-m", "Commit beside a FIFO"],
        environment: world.environment.merging(["GIT_AUTHOR_DATE": HookWorld.gitDate(now)]) { _, new in new },
        currentDirectory: repository)
      // Finished while nothing has opened the FIFO for writing yet: the hook never waited on it.
      let finished = commit.finishes(within: 10)
      // A hook stuck opening the FIFO for reading is let go by a writer that opens it and closes it at once.
      let writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
      if writer >= 0 { close(writer) }
      let result = try commit.wait()
      #expect(finished, "the commit still hung after 10 s")
      #expect(result.status == 0, "\(result.hookTestSummary)")
      var info = stat()
      #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the FIFO was replaced")
      let log = world.hookLogLines()
      #expect(log.count == 1, "\(log)")
      #expect(log.first?.contains(fifo) == true && log.first?.contains("FIFO") == true, "\(log)")
    }
  }

  /// A gitjournal stuck while it holds the journal lock (stopped with Ctrl-Z, hung on a network mount) blocks no
  /// commit anywhere for long: a commit in another repository waits for the lock up to the deadline, then skips
  /// with one line in the hook log, and the next commit catches up. An interactive command says who holds it.
  @Test func stuckLockHolderDelaysACommitOnlyUpToTheDeadline() async throws {
    try await DedicatedThread.run {
      let first = try world.makeRepository("code/first")
      let second = try world.makeRepository("code/second")
      for repository in [first, second] {
        try #require(try world.gitjournal("install", in: repository).status == 0)
      }
      let authorDate = HookWorld.gitDate(Date())
      let initial = try world.commit(in: first, "Initial commit", authorDate: authorDate)
      try world.commit(in: second, "Initial commit", authorDate: authorDate)
      let logged = world.hookLogLines().count
      let lockPath = world.home + "/.local/state/gitjournal/journal.lock"
      let holder = try LockHolder(lockPath)
      defer { holder.release() }

      try Data("change\n".utf8).write(to: URL(fileURLWithPath: second + "/change.txt"))
      try world.git(["add", "-A"], in: second)
      let started = Date()
      let commit = try Subprocess(
        Subprocess.gitExecutable, ["commit", "-q", "-m", "Commit while the lock is stuck"],
        environment: world.environment.merging(["GIT_AUTHOR_DATE": authorDate]) { _, new in new },
        currentDirectory: second)
      let rebuild = try Subprocess(
        world.binary, ["rebuild", "--no-narrative"], environment: world.environment, currentDirectory: first)
      let commitFinished = commit.finishes(within: 12)
      let commitSeconds = Date().timeIntervalSince(started)
      let rebuildFinished = rebuild.finishes(within: max(0, 12 - commitSeconds))
      let rebuildSeconds = Date().timeIntervalSince(started)
      if !commitFinished || !rebuildFinished { holder.release() }
      let committed = try commit.wait()
      let rebuilt = try rebuild.wait()

      // 3 s of slack for a loaded machine.
      let limit = Double(JournalStore.lockTimeout) + 3
      #expect(commitFinished, "the commit still waited after 12 s")
      #expect(committed.status == 0, "\(committed.hookTestSummary)")
      #expect(commitSeconds < limit, "the commit took \(commitSeconds) s")
      #expect(committed.standardError.isEmpty, "\(committed.standardError)")
      let log = world.hookLogLines().dropFirst(logged)
      #expect(log.count == 1, "\(log)")
      #expect(log.first?.contains("journal lock") == true && log.first?.contains("skipped") == true, "\(log)")
      #expect(world.journal(initial.day).map { $0.contains("Commit while the lock is stuck") } == false)

      #expect(rebuildFinished, "rebuild still waited after 12 s")
      #expect(rebuilt.status == 1, "\(rebuilt.hookTestSummary)")
      #expect(rebuildSeconds < limit, "rebuild took \(rebuildSeconds) s")
      let message = rebuilt.standardError
      #expect(message.contains("another gitjournal") && message.contains(lockPath), "\(message)")

      holder.release()
      let next = try world.commit(in: second, "Next commit", authorDate: authorDate)
      let journal = try #require(world.journal(next.day))
      #expect(journal.contains("Commit while the lock is stuck"), "the next commit did not catch up:\n\(journal)")
      #expect(HookWorld.count(next.journalID, in: journal) == 1)
    }
  }

  /// A commit whose header gives an author time beyond the years 1 to 9999 (git stores any 64-bit number, and a
  /// rebase keeps it): the hook neither traps nor complains, the commit is on no day a journal names, and the next
  /// commit is journaled as ever.
  @Test func authorTimesBeyondTheCalendarDoNotStopTheHook() throws {
    let repository = try world.makeInstalledRepository("code/app")
    let first = try world.commit(in: repository, "Initial commit")
    let branch = try world.git(["symbolic-ref", "--short", "HEAD"], in: repository).trimmingCharacters(in: .newlines)
    for time in ["9223372036854775807", "-9223372036854775808", "253402300800"] {
      let tree = try world.git(["write-tree"], in: repository).trimmingCharacters(in: .newlines)
      let parent = try world.git(["rev-parse", "HEAD"], in: repository).trimmingCharacters(in: .newlines)
      let object =
        "tree \(tree)\nparent \(parent)\nauthor \(HookWorld.name) <\(HookWorld.email)> \(time) +0000\n"
        + "committer \(HookWorld.name) <\(HookWorld.email)> 1780000000 +0000\n\nFrom beyond \(time)\n"
      let file = world.scratch.path("commit-\(time)")
      try Data(object.utf8).write(to: URL(fileURLWithPath: file))
      let id = try world.git(["hash-object", "--literally", "-t", "commit", "-w", file], in: repository)
        .trimmingCharacters(in: .newlines)
      try world.git(["update-ref", "refs/heads/" + branch, id], in: repository)
      let hook = try world.gitjournal("hook", "post-commit", in: repository)
      #expect(hook.status == 0 && hook.standardError.isEmpty, "\(time): \(hook.hookTestSummary)")
    }
    let next = try world.commit(in: repository, "Back on the calendar", authorDate: "2026-03-10T10:00:00Z")
    let journal = try #require(world.journal(next.day))
    #expect(journal.contains("Back on the calendar") && !journal.contains("From beyond"))
    #expect(world.journal(first.day) != nil)
    #expect(!HookWorld.exists(world.hookLogPath), "\(world.hookLogLines())")
  }
}
