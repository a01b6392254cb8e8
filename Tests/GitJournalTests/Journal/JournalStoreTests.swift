import Foundation
import Testing

@testable import Facts
@testable import Journal
@testable import Support

/// Writing journal files: keeping permissions, cleaning up after killed writers.
@Suite struct JournalStoreTests {
  let scratch: ScratchDirectory
  let store: JournalStore
  let page = JournalFixtures.page(subjects: ["One"])
  let day = JournalFixtures.day

  init() throws {
    scratch = try ScratchDirectory("gitjournal-store")
    store = JournalStore(directory: scratch.path("journal"), lockPath: scratch.path("state/journal.lock"))
  }

  /// A page's permissions are kept. (A page that is a symlink is never written through: see
  /// `JournalFolderLinksTests`.)
  @Test func keepsPermissions() throws {
    try scratch.write("My notes.\n", to: "journal/2026-03-10.md")
    chmod(store.path(of: day), 0o600)
    #expect(try store.write(page, for: day, isEmpty: false) == .updated)
    let text = try #require(scratch.read("journal/2026-03-10.md"))
    #expect(text.contains("My notes.\n"))
    #expect(text.contains(page.blockBody))
    var info = stat()
    #expect(stat(store.path(of: day), &info) == 0)
    #expect(info.st_mode & 0o777 == 0o600)
    #expect(scratch.allFiles().filter { $0.contains(".gitjournal-tmp-") }.isEmpty)
  }

  @Test func leftoversOfAKilledWriterAreRemoved() throws {
    #expect(try store.write(page, for: day, isEmpty: false) == .created)
    // Each machine's writers name their temporary files after it: a journal folder several machines write has
    // one lock per machine.
    let own = "-" + store.host
    try scratch.write("half a file", to: "journal/.2026-03-10.md.gitjournal-tmp-locked\(own)")
    try scratch.write("someone else's", to: "journal/.2026-03-11.md.gitjournal-tmp-locked\(own)")
    try scratch.write("another machine's", to: "journal/.2026-03-10.md.gitjournal-tmp-locked-elsewhere")
    #expect(try store.write(JournalFixtures.page(subjects: ["One", "Two"]), for: day, isEmpty: false) == .updated)
    #expect(
      scratch.allFiles() == [
        "journal/.2026-03-10.md.gitjournal-tmp-locked-elsewhere", "journal/.2026-03-11.md.gitjournal-tmp-locked\(own)",
        "journal/2026-03-10.md", "state/journal.lock",
      ])
  }

  @Test func aLeftoverBesideAPageLeftUnchangedIsRemovedByTheNextProcess() throws {
    #expect(try store.write(page, for: day, isEmpty: false) == .created)
    let own = "-" + store.host
    try scratch.write("half a file", to: "journal/.2026-03-10.md.gitjournal-tmp-locked\(own)")
    // A store of its own: what the next process sees, its one listing of the folder made after the crash.
    let next = JournalStore(directory: scratch.path("journal"), lockPath: scratch.path("state/journal.lock"))
    #expect(try next.write(page, for: day, isEmpty: false) == .unchanged)
    #expect(scratch.allFiles() == ["journal/2026-03-10.md", "state/journal.lock"])
  }

  @Test func aLeftoverThatIsASymlinkIsNeverWrittenThrough() throws {
    // A day's record has no look for leftovers before its write: its temporary file is made anew, never opened.
    try store.records.write(JournalFixtures.facts(subjects: ["One"]), durable: false)
    try scratch.write("someone's file\n", to: "elsewhere/file")
    let record = store.recordPath(of: day)
    try FileManager.default.createSymbolicLink(
      atPath: PathText.folder(of: record) + "/.2026-03-10.tsv.gitjournal-tmp-locked",
      withDestinationPath: scratch.path("elsewhere/file"))
    try store.records.write(JournalFixtures.facts(subjects: ["One", "Two"]), durable: false)
    #expect(scratch.read("elsewhere/file") == "someone's file\n")
    #expect(store.record(of: day) == JournalFixtures.facts(subjects: ["One", "Two"]))
    let recordFile = String(record.dropFirst(scratch.path.count + 1))
    #expect(scratch.allFiles() == ["elsewhere/file", recordFile])
  }

  @Test func outcomes() throws {
    let empty = JournalPage(facts: DayFacts(day: day, projects: []), narrative: nil, calendar: JournalFixtures.calendar)
    #expect(try store.write(empty, for: day, isEmpty: true) == .nothingToWrite)
    #expect(try store.read(day) == nil)
    #expect(try store.write(page, for: day, isEmpty: false) == .created)
    #expect(try store.write(page, for: day, isEmpty: false) == .unchanged)
    #expect(try store.write(empty, for: day, isEmpty: true) == .updated)
    #expect(try store.read(day)?.contains("No commits") == true)
  }

  /// A batch of writes is synced at its end only when it wrote something: a second rebuild that finds every record and
  /// page as they are has nothing to sync, and a sync of the file system waits for the disk's flush all the same.
  @Test func onlyABatchThatWroteSomethingHasSomethingToSync() async throws {
    let facts = JournalFixtures.facts(subjects: ["One"])
    #expect(!store.batchedWrites.isAny)
    // A durable write is synced by itself.
    try await store.locked { locked in try locked.writeRecord(facts, durability: .immediate, recorded: .unread) }
    #expect(!store.batchedWrites.isAny)
    // The same facts again, batched: the record says them already, nothing is written.
    try await store.locked { locked in try locked.writeRecord(facts, durability: .batched, recorded: .unread) }
    #expect(!store.batchedWrites.isAny)
    // New facts, batched: left for the batch's sync; a second store over the folder starts with nothing to sync.
    let more = JournalFixtures.facts(subjects: ["One", "Two"])
    try await store.locked { locked in try locked.writeRecord(more, durability: .batched, recorded: .unread) }
    #expect(store.batchedWrites.isAny)
    let next = JournalStore(directory: scratch.path("journal"), lockPath: scratch.path("state/journal.lock"))
    #expect(!next.batchedWrites.isAny)
    // A new page written in a batch is left for its sync too.
    try await next.locked { locked in
      _ = try locked.write(JournalFixtures.page(subjects: ["Three"]), for: day, isEmpty: false, durability: .batched)
    }
    #expect(next.batchedWrites.isAny)
  }
}
