import Foundation
import Testing

@testable import CLI
@testable import Support

/// `GITJOURNAL_NO_CACHE=1` turns off every cache kept for speed, and the journal written that way is the one written
/// with them, byte for byte: over branches, a merge, renames, several days and a second machine's records, after
/// a rebuild, a second rebuild that takes everything from the caches, and a hook.
@Suite struct NoCacheTests {
  /// Every file under `folder` (the day records included), by path relative to it.
  private static func files(under folder: String) -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder)
    while let relative = enumerator?.nextObject() as? String {
      var isFolder: ObjCBool = false
      let path = folder + "/" + relative
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
        files[relative] = FileManager.default.contents(atPath: path)
      }
    }
    return files
  }

  /// Runs a command line in process, with `extra` variables besides the sandbox's.
  private static func run(
    _ arguments: [String], in sandbox: JournalSandbox, extra: [String: String], directory: String? = nil
  ) async -> CommandResult {
    let output = TextOutput()
    let error = TextOutput()
    let now = JournalSandbox.defaultNow
    let environment = Environment(
      variables: sandbox.variables.merging(extra) { _, new in new },
      currentDirectory: directory ?? sandbox.home, now: { now })
    let status = await CLI.main(
      arguments: arguments, environment: environment, standardOutput: output, standardError: error)
    return CommandResult(status: status, standardOutput: output.text, standardError: error.text)
  }

  @Test func theJournalWithoutCachesIsTheJournalWithThem() async throws {
    let sandbox = try JournalSandbox()
    try sandbox.configure("journal.merges", "true")
    let app = try sandbox.makeRepository("app")
    try sandbox.register(app)
    try app.commit(file: "a.txt", content: "one\ntwo\n", message: "Start the app", date: "2026-03-08T09:00:00Z")
    try app.git("checkout", "-q", "-b", "feature/export")
    try app.commit(file: "export.txt", content: "csv\n", message: "Add export", date: "2026-03-08T15:00:00Z")
    try app.git("checkout", "-q", "main")
    try app.git("mv", "a.txt", "b.txt")
    try app.commit(message: "Rename a to b", date: "2026-03-09T10:00:00Z")
    try app.git(
      ["merge", "-q", "--no-ff", "-m", "Merge the export", "feature/export"],
      environment: TemporaryRepository.identity(
        date: "2026-03-09T11:00:00Z", committerDate: nil, email: TemporaryRepository.email))
    try app.commit(file: "b.txt", content: "one\ntwo\nthree\n", message: "Grow b", date: "2026-03-10T08:00:00Z")
    let site = try sandbox.makeRepository("site")
    try sandbox.register(site)
    try site.commit(file: "index.html", content: "<p>\n", message: "Open the site", date: "2026-03-09T20:00:00Z")

    // A second machine's records of two of those days, as a sync tool brings them.
    let desktop = try JournalSandbox()
    try desktop.configure("journal.host", "desktop")
    let notes = try desktop.makeRepository("notes")
    try desktop.register(notes)
    try notes.commit(file: "n.md", content: "n\n", message: "Write notes", date: "2026-03-09T12:00:00Z")
    try notes.commit(file: "n.md", content: "n\nm\n", message: "More notes", date: "2026-03-10T12:00:00Z")
    let desktopRebuild = await desktop.run("rebuild", "--since", "2026-03-09", "--until", "2026-03-10")
    #expect(desktopRebuild.status == ExitStatus.success, "\(desktopRebuild)")

    let cacheFolder = sandbox.scratch.path("home/.cache/gitjournal")
    var journals: [[String: Data]] = []
    for (folder, extra) in [("uncached", [Environment.noCacheVariable: "1"]), ("cached", [String: String]())] {
      let journal = sandbox.scratch.path(folder)
      try sandbox.configure("journal.dir", journal)
      try FileManager.default.createDirectory(
        atPath: journal + "/.gitjournal", withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: desktop.journalDirectory + "/.gitjournal/desktop", toPath: journal + "/.gitjournal/desktop")
      for _ in 0..<2 {
        let rebuilt = await Self.run(
          ["rebuild", "--since", "2026-03-08", "--until", "2026-03-10"], in: sandbox, extra: extra)
        #expect(rebuilt.status == ExitStatus.success, "\(folder): \(rebuilt)")
      }
      let hook = await Self.run(["hook", "post-commit"], in: sandbox, extra: extra, directory: app.path)
      #expect(hook.status == ExitStatus.success, "\(folder): \(hook)")
      journals.append(Self.files(under: journal))
      // Nothing kept for speed is written while the caches are off; with them on, the statistics are kept.
      let kept = Self.files(under: cacheFolder).keys.sorted()
      #expect(extra.isEmpty ? kept.contains { $0.hasPrefix("stats-v2/") } : kept.isEmpty, "\(folder): \(kept)")
    }
    let uncached = journals[0]
    let cached = journals[1]
    #expect(cached.count >= 6, "\(cached.keys.sorted())")
    #expect(cached.keys.sorted() == uncached.keys.sorted())
    for (path, bytes) in cached {
      #expect(uncached[path] == bytes, "\(path) differs")
    }
    let march9 = String(decoding: try #require(cached["2026-03-09.md"]), as: UTF8.self)
    #expect(march9.contains("Rename a to b") && march9.contains("Write notes") && march9.contains("Open the site"))
  }
}
