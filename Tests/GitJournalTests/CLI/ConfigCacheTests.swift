import Foundation
import Testing

@testable import CLI
@testable import GitReader
@testable import Support

/// The config's entries kept with its stamp (`ConfigFile.entries(cacheDirectory:)`): every way the file can
/// change is seen at the next read, a file with an include is never kept, and a broken cache is only a miss.
@Suite struct ConfigCacheTests {
  let sandbox: JournalSandbox
  var cache: String { sandbox.scratch.path("home/.cache/gitjournal/config-v1.tsv") }

  init() throws {
    sandbox = try JournalSandbox()
    try sandbox.configure("repo.app.path", sandbox.scratch.path("app"))
    try sandbox.configure("journal.weekStart", "monday")
  }

  /// The config's entries as a hook reads them, with the cache. `settled`: as a few seconds later (`SettledClock`),
  /// when a file written now is no longer too recent to be kept (see `PathStamp.isRacy`).
  func read(settled: Bool = false) throws -> [ConfigFile.Entry] {
    try ConfigFile(path: sandbox.configPath).entries(
      cacheDirectory: sandbox.environment().cacheDirectory, now: settled ? SettledClock.now() : .now)
  }

  func value(_ name: String, in entries: [ConfigFile.Entry]) -> String? {
    entries.last { $0.name == name }?.value
  }

  @Test func anEditOfAnyKindIsSeenAtTheNextRead() throws {
    #expect(value("journal.weekstart", in: try read(settled: true)) == "monday")
    #expect(FileManager.default.fileExists(atPath: cache), "the settled file was not kept")
    #expect(value("journal.weekstart", in: try read()) == "monday")

    // Written by rename (git config, libgit2).
    try sandbox.configure("journal.weekStart", "sunday")
    #expect(value("journal.weekstart", in: try read()) == "sunday")
    _ = try read(settled: true)

    // Written in place with the same length and its modification time set back: the change time still moves, as it
    // does for an edit made a clock tick (at most 10 ms) or more after the file was kept.
    try SettledClock.fileClockAfterATick(in: sandbox.scratch.path)
    let before = try FileManager.default.attributesOfItem(atPath: sandbox.configPath)[.modificationDate] as? Date
    let text = try String(contentsOfFile: sandbox.configPath, encoding: .utf8)
    let handle = try #require(FileHandle(forWritingAtPath: sandbox.configPath))
    handle.write(Data(text.replacingOccurrences(of: "sunday", with: "friday").utf8))
    try handle.close()
    try FileManager.default.setAttributes([.modificationDate: before as Any], ofItemAtPath: sandbox.configPath)
    #expect(value("journal.weekstart", in: try read()) == "friday")
  }

  @Test func aFileWithAnIncludeIsNeverKept() throws {
    let included = sandbox.scratch.path("included")
    try Data("[journal]\n\tweekStart = tuesday\n".utf8).write(to: URL(fileURLWithPath: included))
    try sandbox.configure("include.path", included)
    #expect(value("journal.weekstart", in: try read(settled: true)) == "tuesday")
    #expect(!FileManager.default.fileExists(atPath: cache))
    try Data("[journal]\n\tweekStart = saturday\n".utf8).write(to: URL(fileURLWithPath: included))
    #expect(value("journal.weekstart", in: try read()) == "saturday")
  }

  @Test func aFileJustWrittenIsNotKeptAndABrokenCacheIsAMiss() throws {
    _ = try read()
    #expect(!FileManager.default.fileExists(atPath: cache), "a file written just now was kept")
    let full = try read(settled: true)
    let kept = try String(contentsOfFile: cache, encoding: .utf8)
    for broken in [String(kept.dropLast(5)), kept.replacingOccurrences(of: "entry\t", with: "entri\t"), "garbage\n"] {
      try Data(broken.utf8).write(to: URL(fileURLWithPath: cache))
      #expect(try read() == full)
    }
  }
}
