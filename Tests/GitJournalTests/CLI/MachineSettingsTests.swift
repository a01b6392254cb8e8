import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import Support

/// What a machine says about itself in a shared journal (issue 20): its name, where its records go, and the
/// sentence it shares. In process, with real repositories.
@Suite struct MachineSettingsTests {
  static let day = Day(year: 2026, month: 3, day: 10)

  /// The sentence is keyed by the facts of every machine and kept in the journal folder: a machine whose model is
  /// off renders the day with the sentence another machine got, to the same bytes; it is written only when new.
  @Test func aSentenceOneMachineGotIsShownByTheOther() async throws {
    let machines = try TwoMachines()
    let (laptop, desktop, app, site) = (machines.laptop, machines.desktop, machines.app, machines.site)
    try app.commit(file: "a.txt", content: "a\n", message: "Fix the sync", date: "2026-03-10T09:00:00Z")
    try site.commit(file: "s.txt", content: "s\n", message: "Older work", date: "2026-03-09T09:00:00Z")

    #expect(await laptop.run("rebuild", "2026-03-10").status == 0)
    let environment = laptop.environment()
    let journaling = Journaling(configuration: try Configuration.load(environment), environment: environment)
    let facts = try #require(try await journaling.recorded(Self.day))
    // One the model's guard accepts for these facts: a shared sentence is shown only then.
    let sentence = "I fixed the sync."
    #expect(try await journaling.attach(sentence, to: facts))
    let file = try #require(laptop.journalFile("2026-03-10"))
    #expect(file.contains(sentence))

    // A sync tool carries the laptop's records, and only those, to the desktop.
    try machines.carryLaptopRecords()
    #expect(await desktop.run("rebuild", "2026-03-10").status == 0)
    #expect(desktop.journalFile("2026-03-10") == file, "the desktop rendered the day otherwise")
    #expect(!HookWorld.exists(desktop.journalDirectory + "/.gitjournal/desktop/sentences"))

    let shared = laptop.journalDirectory + "/.gitjournal/laptop/sentences/2026-03-10.tsv"
    let before = try #require(FileStamp(path: shared))
    #expect(try await journaling.attach(sentence, to: facts))
    #expect(FileStamp(path: shared) == before, "the same sentence was written again")

    // New facts on another machine: the sentence was for the old ones.
    try site.commit(file: "s.txt", content: "t\n", message: "Same day", date: "2026-03-10T10:00:00Z")
    #expect(await desktop.run("rebuild", "2026-03-10").status == 0)
    let newer = try #require(desktop.journalFile("2026-03-10"))
    #expect(!newer.contains(sentence) && newer.contains("2 commits across 2 projects"), "\(newer)")
  }

  /// A rebuild passes over a day without commits of its own at once, unless the day has a file or some machine a
  /// record of it: a day only another machine worked on still gets its page, and a page of this machine's that no
  /// longer has commits is still emptied.
  @Test func aDayOnlyAnotherMachineWorkedOnGetsItsPageInARebuild() async throws {
    let machines = try TwoMachines()
    let (laptop, desktop, app, site) = (machines.laptop, machines.desktop, machines.app, machines.site)
    try app.commit(file: "a.txt", content: "a\n", message: "Laptop work", date: "2026-03-04T09:00:00Z")
    try site.commit(file: "s.txt", content: "s\n", message: "Desktop work", date: "2026-03-02T09:00:00Z")
    try site.commit(file: "s.txt", content: "t\n", message: "Reset away", date: "2026-03-06T09:00:00Z")
    #expect(await laptop.run("rebuild", "--since", "2026-03-01", "--until", "2026-03-08").status == 0)

    try machines.carryLaptopRecords()
    let range = ["rebuild", "--since", "2026-03-01", "--until", "2026-03-08"]
    #expect(await desktop.run(range).status == 0)
    #expect(desktop.journalFile("2026-03-04")?.contains("Laptop work") == true, "the laptop's day got no page")
    #expect(desktop.journalFile("2026-03-06")?.contains("Reset away") == true)

    try site.git("reset", "-q", "--hard", "HEAD~1")
    let again = await desktop.run(range)
    #expect(again.status == 0)
    let emptied = try #require(desktop.journalFile("2026-03-06"))
    #expect(!emptied.contains("Reset away"), "a day whose commits are gone kept them:\n\(emptied)")
    #expect(desktop.journalFile("2026-03-04")?.contains("Laptop work") == true)
    #expect(!desktop.journalFolderNames().contains("2026-03-05.md"))
  }

  /// `journal.shareFacts = false`: the records go to the state folder, and nothing but day files to the journal.
  @Test func unsharedFactsStayInTheStateFolder() async throws {
    let sandbox = try JournalSandbox()
    try sandbox.configure("journal.shareFacts", "false")
    try sandbox.configure("journal.host", "desk")
    let app = try sandbox.makeRepository("app")
    try sandbox.register(app)
    try app.commit(file: "a.txt", content: "a\n", message: "Fix", date: "2026-03-10T09:00:00Z")
    #expect(await sandbox.run("rebuild", "2026-03-10").status == 0)
    #expect(sandbox.journalFolderNames().contains("2026-03-10.md"))
    #expect(!HookWorld.exists(sandbox.journalDirectory + "/.gitjournal"))
    #expect(HookWorld.exists(sandbox.stateHome + "/gitjournal/records/desk/2026-03-10.tsv"))
    let report = try await sandbox.report("2026-03-10")
    #expect(report.commitCount == 1)
  }

  /// `journal.host` is checked like any key: a name that is no folder name, or the conflicts folder's, is an
  /// error naming the key; `--host` takes a machine's name only.
  @Test func aMachineNameIsChecked() async throws {
    let sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    try sandbox.register(app)
    for bad in ["", "my laptop", "../up", ".hidden", "conflicts", String(repeating: "a", count: 65)] {
      try sandbox.configure("journal.host", bad)
      let result = await sandbox.run("show", "2026-03-10")
      #expect(result.status == 1 && result.standardError.contains("journal.host"), "\(bad): \(result)")
    }
    try sandbox.configure("journal.host", "work-laptop_2.local")
    #expect(await sandbox.run("show", "2026-03-10").status == 0)
    let usage = await sandbox.run("show", "--host", "../x")
    #expect(usage.status == 64 && usage.standardError.contains("--host"), "\(usage)")
    #expect(HostName.sanitized("conflicts") == "conflicts-machine")
    #expect(HostName.isValid(HostName.sanitized("my laptop.local")))
  }
}
