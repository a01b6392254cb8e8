import Foundation
import Testing

@testable import CLI
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

  /// The config's entries as a hook reads them, with the cache.
  func read() throws -> [ConfigFile.Entry] {
    try ConfigFile(path: sandbox.configPath).entries(cacheDirectory: sandbox.environment().cacheDirectory)
  }

  /// Waits until a file written now is no longer too recent to be kept (see `PathStamp.isRacy`).
  func settle() { usleep(150_000) }

  func value(_ name: String, in entries: [ConfigFile.Entry]) -> String? {
    entries.last { $0.name == name }?.value
  }

  @Test func anEditOfAnyKindIsSeenAtTheNextRead() throws {
    settle()
    #expect(value("journal.weekstart", in: try read()) == "monday")
    #expect(FileManager.default.fileExists(atPath: cache), "the settled file was not kept")
    #expect(value("journal.weekstart", in: try read()) == "monday")

    // Written by rename (git config, libgit2).
    try sandbox.configure("journal.weekStart", "sunday")
    #expect(value("journal.weekstart", in: try read()) == "sunday")
    settle()
    _ = try read()

    // Written in place with the same length and its modification time set back: the change time still moves.
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
    settle()
    #expect(value("journal.weekstart", in: try read()) == "tuesday")
    #expect(!FileManager.default.fileExists(atPath: cache))
    try Data("[journal]\n\tweekStart = saturday\n".utf8).write(to: URL(fileURLWithPath: included))
    #expect(value("journal.weekstart", in: try read()) == "saturday")
  }

  @Test func aFileJustWrittenIsNotKeptAndABrokenCacheIsAMiss() throws {
    _ = try read()
    #expect(!FileManager.default.fileExists(atPath: cache), "a file written just now was kept")
    settle()
    let full = try read()
    let kept = try String(contentsOfFile: cache, encoding: .utf8)
    for broken in [String(kept.dropLast(5)), kept.replacingOccurrences(of: "entry\t", with: "entri\t"), "garbage\n"] {
      try Data(broken.utf8).write(to: URL(fileURLWithPath: cache))
      #expect(try read() == full)
    }
  }
}
