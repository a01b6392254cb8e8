import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import Journal
@testable import Support

extension Reliability {
  /// What another machine's files can put on a page (issue 43, items 7 and 8; issue 41, item 5): a shared sentence is
  /// shown only if the model's guard accepts it against the page's facts, and subjects are inert Markdown in the
  /// file, shown as typed on a terminal and escaped only where they would be markup in `standup`'s Markdown.
  @Suite struct SyncedFolderTests {
    let sandbox: JournalSandbox
    let app: TemporaryRepository
    /// This machine's commit of the day, 09:00 UTC.
    let own: String

    static let day = "2026-03-10"

    init() throws {
      sandbox = try JournalSandbox()
      try sandbox.configure("journal.host", "mine")
      app = try sandbox.makeRegisteredRepository("app")
      own = try app.commit(message: "Fix the parser crash", date: "2026-03-10T09:00:00Z")
    }

    var records: String { sandbox.journalDirectory + "/.gitjournal" }

    /// 7. A shared sentence goes through the model's guard against the facts it claims: one with a beacon image, a
    /// link and a wiki link, or of 2 MB, is refused; one the guard accepts is shown.
    @Test func sharedSentencesGoThroughTheGuard() async throws {
      #expect((await sandbox.run("rebuild", Self.day, "--no-narrative")).status == 0)
      let store = DayRecordStore(journalDirectory: sandbox.journalDirectory, host: "mine")
      let day = try #require(Day(iso: Self.day))
      let facts = try #require(store.recorded(day))
      let signature = facts.signature(calendar: JournalFixtures.calendar)
      func share(_ sentence: String) throws {
        let folder = records + "/beta/sentences"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(StateFile.bytes(of: [["sentences", "1", Self.day], ["sentence", signature, sentence], ["end"]]))
          .write(to: URL(fileURLWithPath: folder + "/\(Self.day).tsv"))
      }
      let hostile =
        "I fixed the parser crash ![beacon](http://127.0.0.1:9/x.png) [click](https://evil.example/) "
        + "[[Private Note]]."
      for (sentence, isShown) in [
        (hostile, false), ("I fixed the parser crash " + String(repeating: "again and ", count: 200_000) + ".", false),
        ("I fixed the parser crash.", true),
      ] {
        try share(sentence)
        // Made afresh, so that no stamp of the page can leave it as it was.
        try? FileManager.default.removeItem(atPath: sandbox.journalDirectory + "/\(Self.day).md")
        let result = await sandbox.run("rebuild", Self.day, "--no-narrative")
        let page = try #require(sandbox.journalFile(Self.day))
        #expect(page.contains("I fixed the parser crash") == isShown, "\(sentence.prefix(60)): \(result)")
        #expect(!page.contains("beacon") && !page.contains("evil.example") && page.utf8.count < 10_000)
        // Other tests in this process may note refusals of their own: only this sentence's are looked for.
        let refused =
          result.standardError.contains("refused the sentence shared for \(Self.day)")
          || result.standardError.contains("refused the shared sentences \(records)/beta/sentences/\(Self.day).tsv")
        #expect(refused != isShown, "\(result)")
      }
    }

    /// 8 and issue 41's item 5. Subjects are inert Markdown in the file (no link, image or wiki link stays live),
    /// a terminal shows them as typed, and `standup`'s Markdown escapes only what would be markup where it is
    /// pasted.
    @Test func subjectsAreInertInTheFileAndAsTypedOnATerminal() async throws {
      let subject = "Fix a < b && c > d in `parser` -> faster ![img](http://x.example/i.png) [l](javascript:x) [[x]]"
      _ = try app.commit(message: subject, date: "2026-03-10T10:00:00Z")
      #expect((await sandbox.run("rebuild", Self.day, "--no-narrative")).status == 0)
      let file = try #require(sandbox.journalFile(Self.day))
      #expect(
        file.contains(
          "Fix a &lt; b &amp;&amp; c &gt; d in \\`parser\\` -&gt; faster !\\[img\\](http://x.example/i.png) "
            + "\\[l\\](javascript:x) \\[\\[x\\]\\]"), "\(file)")

      let terminal = try Pseudoterminal(columns: 400)
      var environment = sandbox.environment()
      environment.variables["TERM"] = "xterm"
      environment.variables["NO_COLOR"] = "1"
      let shown = await CLI.main(
        arguments: ["show", Self.day], environment: environment, standardOutput: terminal.output,
        standardError: TextOutput())
      #expect(shown == 0)
      #expect(terminal.written().contains(subject), "\(terminal.written())")

      let standup = await sandbox.run("standup", "--format", "markdown")
      #expect(
        standup.standardOutput.contains(
          "Fix a < b && c > d in \\`parser\\` -> faster !\\[img\\](http://x.example/i.png) \\[l\\](javascript:x) "
            + "\\[\\[x\\]\\]"), "\(standup)")
    }
  }
}
