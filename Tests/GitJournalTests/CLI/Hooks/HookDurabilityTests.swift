import Foundation
import Testing

/// What the hook makes durable, seen with `strace` on the real binary: a page is synced before it replaces the
/// old one when it holds the user's text (a crash must not take a note), the day's record always, and each folder
/// once, when the lock is let go. A page of gitjournal's alone is not synced: the next write makes it again, and
/// every sync costs the commit a commit of the file system's journal.
@Suite struct HookDurabilityTests {
  let world: HookWorld
  let repository: String

  init() throws {
    world = try HookWorld()
    repository = try world.makeInstalledRepository("code/app")
  }

  /// The files and folders one `hook post-commit` synced, by the path each descriptor was opened with.
  func syncedByHook() throws -> [String] {
    var opened: [String: String] = [:]
    var synced: [String] = []
    for line in try tracedHook(calls: "openat,fsync,fdatasync") {
      let fields = line.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      guard fields.count == 2 else { continue }
      let (process, call) = (fields[0], fields[1])
      if call.hasPrefix("openat("), let path = call.split(separator: "\"").dropFirst().first,
        let descriptor = call.split(separator: "=").last?.trimmingCharacters(in: .whitespaces), Int(descriptor) != nil
      {
        opened[process + ":" + descriptor] = String(path)
      } else if call.hasPrefix("fsync(") || call.hasPrefix("fdatasync(") {
        let descriptor = call.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
        synced.append(opened[process + ":" + descriptor] ?? "fd \(descriptor)")
      }
    }
    return synced
  }

  /// The hook's system calls of the kinds in `calls` (strace's `-e trace=`), one line each, after a new commit.
  func tracedHook(calls: String) throws -> [Substring] {
    // A subject of its own: commits alike in subject, time and size are taken for copies of one commit.
    try world.commit(in: repository, "More \(UUID().uuidString)", configuration: ["core.hooksPath": "/dev/null"])
    let log = world.scratch.path("strace-\(UUID().uuidString).log")
    let traced = try world.run(
      "/usr/bin/strace",
      [
        "-f", "-qq", "-e", "trace=\(calls)", "-o", log, world.binary, "hook", "post-commit", "--config",
        world.configPath,
      ],
      in: repository)
    try #require(traced.status == 0, "strace (apt-get install strace) or the hook failed: \(traced)")
    return try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
  }

  /// ext4 flushes a file renamed over another at once: the hook's caches are replaced by removing the old file and
  /// linking the new one in, never renamed over, while the journal's files still are (a sync tool must never see
  /// them deleted).
  @Test func cachesAreReplacedWithoutARenameAndJournalFilesByOne() throws {
    try world.commit(in: repository, "Start")
    let calls = try tracedHook(calls: "rename,renameat,renameat2,unlink,unlinkat,linkat")
    // The target of a rename or link is the call's last quoted path.
    func target(_ call: Substring) -> String? {
      let quoted = call.split(separator: "\"", omittingEmptySubsequences: false)
      return quoted.count >= 3 ? String(quoted[quoted.count - 2]) : nil
    }
    let caches = world.home + "/.cache/gitjournal/"
    let renamed = calls.filter { $0.contains("rename") }.compactMap(target)
    let linked = calls.filter { $0.contains("linkat(") && !$0.contains("unlinkat(") }.compactMap(target)
    #expect(!renamed.contains { $0.hasPrefix(caches) }, "a cache was renamed over: \(renamed)")
    #expect(linked.contains { $0.hasPrefix(caches) }, "the commit rewrote no cache: \(calls)")
    #expect(renamed.contains { $0.hasPrefix(world.journalDirectory + "/") && $0.hasSuffix(".md") }, "\(renamed)")
  }

  @Test func onlyTheRecordTheFoldersAndPagesWithTheUsersTextAreSynced() throws {
    let first = try world.commit(in: repository, "Start")
    let records = world.journalDirectory + "/.gitjournal"
    var synced = try syncedByHook()
    #expect(synced.contains { $0.hasPrefix(records + "/") && $0.contains(".tsv.gitjournal-tmp") }, "\(synced)")
    #expect(
      !synced.contains { $0.contains(".md.gitjournal-tmp") }, "a page of gitjournal's alone was synced: \(synced)")
    let folders = synced.filter { !$0.contains(".gitjournal-tmp") }
    #expect(folders.count == 1 && folders.first?.hasPrefix(records + "/") == true, "\(synced)")

    // A note below the block: from now on the day's page is synced before it replaces the old one.
    let page = world.journalDirectory + "/\(first.day).md"
    let handle = try #require(FileHandle(forWritingAtPath: page))
    handle.seekToEndOfFile()
    handle.write(Data("\nMy own note.\n".utf8))
    try handle.close()
    synced = try syncedByHook()
    #expect(synced.contains { $0.hasPrefix(world.journalDirectory + "/.\(first.day).md.gitjournal-tmp") }, "\(synced)")
    // Each folder once, after the writes: the record's and the journal's.
    #expect(synced.filter { !$0.contains(".gitjournal-tmp") }.count == 2, "\(synced)")
    #expect(synced.last == world.journalDirectory || synced.dropLast().last == world.journalDirectory, "\(synced)")
    #expect(world.journal(first.day)?.contains("My own note.") == true)
  }

  /// The hook of a commit runs on the main thread: no thread is started for the one repository it reads with
  /// libgit2, the stored reads of the quiet ones, or the hop of an async function to Swift's pool, whose first job
  /// starts four threads (a few milliseconds of every commit on a machine where a thread's start is slow). Only
  /// with Swift 6.2 or later, whose `nonisolated(nonsending)` keeps the hook's async path on the main thread (see
  /// Package.swift); built with an older Swift, the hook starts the pool.
  @Test(.enabled(if: Self.keepsAsyncCallsOnTheCallersExecutor))
  func theHookOfACommitStartsNoThread() throws {
    try world.commit(in: try world.makeInstalledRepository("code/quiet"), "Quiet since")
    // A repository whose refs changed in the last tenth of a second (three seconds where the file system keeps
    // whole seconds) is read again rather than trusted to its stamp: after this, the hook of "Start" stores the
    // quiet one's read with a stamp the next hook trusts.
    Thread.sleep(forTimeInterval: try Self.hasWholeSecondTimes(world.scratch.path) ? 3.1 : 0.2)
    try world.commit(in: repository, "Start")
    let calls = try tracedHook(calls: "clone,clone3,openat")
    // The openat calls show the trace saw the hook at work.
    #expect(calls.contains { $0.contains("openat(") && $0.contains(world.journalDirectory) }, "\(calls)")
    // The hook's own process only: the narrator it may start (a process of its own) has threads of its own. A
    // thread the hook started would be started by its first thread, before any other.
    let hook = try #require(calls.first?.prefix { $0 != " " })
    let started = calls.filter { $0.hasPrefix(hook + " ") && $0.contains("CLONE_THREAD") }
    #expect(started.isEmpty, "threads started: \(started)")
  }

  #if compiler(>=6.2)
    static let keepsAsyncCallsOnTheCallersExecutor = true
  #else
    static let keepsAsyncCallsOnTheCallersExecutor = false
  #endif

  /// Whether files made in `folder` have modification times without nanoseconds.
  static func hasWholeSecondTimes(_ folder: String) throws -> Bool {
    let probe = folder + "/time-probe-\(UUID().uuidString)"
    var times: [Int] = []
    for _ in 0..<3 {
      try Data("x".utf8).write(to: URL(fileURLWithPath: probe))
      var info = stat()
      guard stat(probe, &info) == 0 else { return true }
      times.append(info.st_mtim.tv_nsec)
      Thread.sleep(forTimeInterval: 0.001)
    }
    return times.allSatisfy { $0 == 0 }
  }
}
