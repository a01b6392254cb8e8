import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Journal
@testable import Support

/// Nothing inside the journal folder is read or written through a symlink that a sync tool brought in: not a page,
/// a sync conflict copy, `.gitjournal`, a machine's folder, nor the conflicts folder. The journal folder itself
/// may be one.
@Suite struct JournalFolderLinksTests {
  let scratch: ScratchDirectory
  let store: JournalStore
  let page = JournalFixtures.page(subjects: ["One"])
  let day = JournalFixtures.day

  init() throws {
    scratch = try ScratchDirectory("gitjournal-links")
    try scratch.makeFolder("journal")
    store = JournalStore(
      directory: scratch.path("journal"), lockPath: scratch.path("state/journal.lock"), host: "alpha")
  }

  @Test func aConflictCopyThatIsASymlinkIsNeitherReadNorMerged() throws {
    try scratch.write("Private text from elsewhere.\n", to: "elsewhere/secret.txt")
    #expect(try store.write(page, for: day, isEmpty: false) == .created)
    let copy = "2026-03-10.sync-conflict-20261205-000001-LINK.md"
    #expect(symlink(scratch.path("elsewhere/secret.txt"), scratch.path("journal/" + copy)) == 0)
    let fresh = JournalStore(directory: store.directory, lockPath: store.lockPath, host: "alpha")
    _ = try fresh.write(JournalFixtures.page(subjects: ["One", "Two"]), for: day, isEmpty: false)
    let text = scratch.read("journal/2026-03-10.md") ?? ""
    #expect(text.contains("Two") && !text.contains("Private text"))
    // Left where it is, a link still: not moved into the conflicts folder either.
    var info = stat()
    #expect(lstat(scratch.path("journal/" + copy), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    #expect(!FileManager.default.fileExists(atPath: scratch.path("journal/.gitjournal/conflicts/" + copy)))
    let refused = RefusedInputs.noted(containing: scratch.path("journal/" + copy))
    #expect(refused.count == 1 && refused.first?.contains("symlink") == true, "\(refused)")
  }

  @Test(arguments: ["2026-03-10.md", "2026-W11.md", "2026-03.md"])
  func aPageThatIsASymlinkIsNeverWrittenThrough(name: String) throws {
    try scratch.write("Someone's file.\n", to: "elsewhere/file.md")
    #expect(symlink(scratch.path("elsewhere/file.md"), scratch.path("journal/" + name)) == 0)
    do {
      _ = try store.lockedNow { locked in
        try locked.write(page, at: scratch.path("journal/" + name), pageName: String(name.dropLast(3)), isEmpty: false)
      }
      Issue.record("the write through a symlink was not refused")
    } catch {
      let refusal = error as? SystemError
      #expect(refusal?.errorNumber == ELOOP && refusal?.description.contains("symlink") == true)
    }
    #expect(scratch.read("elsewhere/file.md") == "Someone's file.\n")
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: scratch.path("journal/" + name))) != nil)
  }

  /// A dangling link in a page's place makes no file where it points.
  @Test func aDanglingPageLinkMakesNothing() throws {
    try scratch.makeFolder("vault")
    #expect(symlink(scratch.path("vault/2026-03-10.md"), store.path(of: day)) == 0)
    #expect(throws: SystemError.self) { try store.write(page, for: day, isEmpty: false) }
    #expect(!FileManager.default.fileExists(atPath: scratch.path("vault/2026-03-10.md")))
  }

  @Test(arguments: [".gitjournal", ".gitjournal/alpha"])
  func recordsAreNeverWrittenThroughALinkedFolder(linked: String) throws {
    let elsewhere = try scratch.makeFolder("elsewhere")
    if linked != ".gitjournal" { try scratch.makeFolder("journal/.gitjournal") }
    #expect(symlink(elsewhere, scratch.path("journal/" + linked)) == 0)
    #expect(throws: SystemError.self) {
      try store.records.write(JournalFixtures.facts(subjects: ["One"]), durable: false)
    }
    #expect(throws: SystemError.self) { try store.records.forget([.repeating("1")]) }
    #expect((try FileManager.default.contentsOfDirectory(atPath: elsewhere)).isEmpty)
    #expect(store.record(of: day) == nil)
  }

  /// Another machine's folder that is a symlink, or a record that is one, is not read.
  @Test func foreignRecordsBehindLinksAreNotRead() throws {
    let record = StateFile.bytes(of: DayRecord.records(of: JournalFixtures.facts(subjects: ["Theirs"])))
    try scratch.write(bytes: record, to: "elsewhere/beta/2026-03-10.tsv")
    try scratch.makeFolder("journal/.gitjournal/gamma")
    #expect(symlink(scratch.path("elsewhere/beta"), scratch.path("journal/.gitjournal/beta")) == 0)
    #expect(
      symlink(
        scratch.path("elsewhere/beta/2026-03-10.tsv"), scratch.path("journal/.gitjournal/gamma/2026-03-10.tsv")) == 0)
    #expect(store.records.machines() == ["gamma"])
    #expect(store.recordedFacts(of: day) == nil)
    #expect(store.record(of: day, host: "beta") == nil)
    // The same record as a file is read: the links alone kept it out.
    try scratch.write(bytes: record, to: "journal/.gitjournal/delta/2026-03-10.tsv")
    #expect(store.recordedFacts(of: day)?.projects.first?.commits.first?.subject == "Theirs")
  }

  /// This machine's record that a sync tool replaced with a link is replaced by the record, not written through.
  @Test func aRecordThatIsASymlinkIsReplaced() throws {
    try scratch.write("someone's file\n", to: "elsewhere/file")
    try scratch.makeFolder("journal/.gitjournal/alpha")
    #expect(symlink(scratch.path("elsewhere/file"), store.recordPath(of: day)) == 0)
    try store.records.write(JournalFixtures.facts(subjects: ["One"]), durable: false)
    #expect(scratch.read("elsewhere/file") == "someone's file\n")
    #expect(store.record(of: day) == JournalFixtures.facts(subjects: ["One"]))
  }

  @Test func copiesAreNotMovedIntoALinkedConflictsFolder() throws {
    let elsewhere = try scratch.makeFolder("elsewhere")
    try scratch.makeFolder("journal/.gitjournal")
    #expect(symlink(elsewhere, scratch.path("journal/.gitjournal/conflicts")) == 0)
    let copy = "2026-03-10.sync-conflict-20261205-000001-ABC.md"
    try scratch.write("A note from the other machine.\n", to: "journal/" + copy)
    #expect(try store.write(page, for: day, isEmpty: false) == .created)
    #expect(scratch.read("journal/2026-03-10.md")?.contains("A note from the other machine.") == true)
    #expect(scratch.read("journal/" + copy) == "A note from the other machine.\n")
    #expect((try FileManager.default.contentsOfDirectory(atPath: elsewhere)).isEmpty)
    let refused = RefusedInputs.noted(containing: scratch.path("journal"))
    #expect(refused.count == 1 && refused.first?.contains("conflicts") == true, "\(refused)")
  }

  @Test func aCopyLargerThanTheCapIsLeftAlone() throws {
    let copy = "2026-03-10.sync-conflict-20261205-000001-BIG.md"
    let paragraph = String(repeating: "x", count: 1023) + "\n\n"
    try scratch.write(String(repeating: paragraph, count: SyncConflicts.largestCopy / 1024 + 1), to: "journal/" + copy)
    #expect(try store.write(page, for: day, isEmpty: false) == .created)
    #expect(scratch.read("journal/2026-03-10.md")?.contains("xxxx") == false)
    #expect(FileManager.default.fileExists(atPath: scratch.path("journal/" + copy)))
    let refused = RefusedInputs.noted(containing: scratch.path("journal/" + copy))
    #expect(refused.count == 1 && refused.first?.contains("larger than") == true, "\(refused)")
  }

  /// The merge of copies is linear in their paragraphs: four times the paragraphs take about four times as long
  /// (a nested scan took sixteen). Measured as this thread's CPU time, the best of three runs of each size, so that
  /// other tests running beside it do not decide it; the ratio is generous.
  @Test func mergingCopiesIsLinearInTheirSize() throws {
    let conflicts = SyncConflicts(journalDirectory: scratch.path("journal"))
    func threadTime() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
      return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    func best(paragraphs count: Int) throws -> Double {
      let names = ["A", "B"].map { "2026-03-10.sync-conflict-20261205-000001-\($0)-\(count).md" }
      for (number, name) in names.enumerated() {
        let text = (0..<count).map { "Paragraph \($0) of copy \(number), long enough to be a note." }
        try scratch.write(text.joined(separator: "\n\n") + "\n", to: "journal/" + name)
      }
      var fastest = Double.infinity
      for _ in 0..<3 {
        let start = threadTime()
        let merged = conflicts.merging(names, into: "My own note.\n").text ?? ""
        fastest = min(fastest, threadTime() - start)
        #expect(merged.utf8.count > count * 2 * 40)
      }
      return fastest
    }
    let small = try best(paragraphs: 5_000)
    let large = try best(paragraphs: 20_000)
    let ratio = large / small
    #expect(ratio < 8, "20,000 paragraphs took \(ratio) times as long as 5,000")
  }
}
