import Foundation

/// Two machines that share one journal, each with a sandbox of its own: the laptop journals `app`, the desktop
/// journals `site`. Neither repository has commits yet.
struct TwoMachines {
  let laptop: JournalSandbox
  let desktop: JournalSandbox
  let app: TemporaryRepository
  let site: TemporaryRepository

  init() throws {
    laptop = try JournalSandbox()
    desktop = try JournalSandbox()
    try laptop.configure("journal.host", "laptop")
    try desktop.configure("journal.host", "desktop")
    app = try laptop.makeRepository("app")
    try laptop.register(app)
    site = try desktop.makeRepository("site")
    try desktop.register(site)
  }

  /// What a sync tool does: the laptop's records, and only those, copied into the desktop's journal folder.
  func carryLaptopRecords() throws {
    try FileManager.default.createDirectory(atPath: desktop.journalDirectory, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: laptop.journalDirectory + "/.gitjournal", toPath: desktop.journalDirectory + "/.gitjournal")
  }
}
