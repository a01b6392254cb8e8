import Foundation

@testable import CLI

/// A journal for the MCP tests: `app`, a public project, and `vault`, a private one, with commits on two days
/// (one on a branch each) and the days' files written, a note in one that quotes a private subject.
struct McpFixture {
  static let days = ["2026-03-09", "2026-03-10"]
  static let privateSubjects = ["Rotate the vault master keys", "Draft the acquisition memo"]
  static let privateBranch = "client/acme-merger"

  let sandbox: JournalSandbox
  let vault: TemporaryRepository
  /// Every text of the private project that no answer may hold: subjects, branch, ids (whole and short), path.
  let secrets: [String]

  init() throws {
    sandbox = try JournalSandbox()
    let app = try sandbox.makeRepository("app")
    try app.commit(file: "a.txt", content: "a\n", message: "Teach the parser about tabs", date: "2026-03-09T09:00:00Z")
    try app.commit(file: "b.txt", content: "b\n", message: "Fix the sync crash", date: "2026-03-10T10:00:00Z")
    _ = try app.git("checkout", "-q", "-b", "feature/export")
    try app.commit(file: "c.txt", content: "c\nd\n", message: "Add CSV export", date: "2026-03-10T11:00:00Z")
    vault = try sandbox.makeRepository("vault")
    let first = try vault.commit(
      file: "k.txt", content: "k\n", message: Self.privateSubjects[0], date: "2026-03-10T09:30:00Z")
    _ = try vault.git("checkout", "-q", "-b", Self.privateBranch)
    let second = try vault.commit(
      file: "m.txt", content: "m\n", message: Self.privateSubjects[1], date: "2026-03-10T12:00:00Z")
    try sandbox.register(app)
    try sandbox.register(vault)
    try sandbox.configure("repo.vault.private", "true")
    let rebuilt = try sandbox.runBinary("rebuild", Self.days[0], Self.days[1])
    guard rebuilt.status == 0 else { throw ScratchError("rebuild failed: \(rebuilt)") }
    // The user's own notes may quote a private commit; the server takes it out of the file's text too.
    let path = sandbox.journalDirectory + "/2026-03-10.md"
    let file = try String(contentsOfFile: path, encoding: .utf8)
    try (file + "\nTalked about \(Self.privateSubjects[0]) with Ana (\(String(first.prefix(7)))).\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    secrets =
      Self.privateSubjects + [Self.privateBranch, first, second, String(first.prefix(7)), String(second.prefix(7))]
      + [vault.path]
  }

  /// `gitjournal show <arguments> --json`, parsed.
  func showJSON(_ arguments: String...) throws -> JSONValue {
    let result = try BinaryRunner.run(
      ["show"] + arguments + ["--json"], environment: sandbox.binaryEnvironment, currentDirectory: sandbox.home)
    guard result.status == 0 else { throw ScratchError("show \(arguments) --json failed: \(result.standardError)") }
    return try JSONDecoder().decode(JSONValue.self, from: result.outputData)
  }

  /// A day's JSON as the server gives it: the private project's path empty, its times and commits left out.
  static func redacted(day: JSONValue, privateProject: String = "vault") -> JSONValue {
    guard var members = day.object, case .array(let projects)? = members["projects"] else { return day }
    members["projects"] = .array(
      projects.map { project in
        guard var fields = project.object, fields["name"] == .string(privateProject) else { return project }
        fields["path"] = .string("")
        fields["commits"] = .array([])
        fields["firstCommitAt"] = nil
        fields["lastCommitAt"] = nil
        return .object(fields)
      })
    return .object(members)
  }

  /// A range's JSON as the server gives it: each day redacted.
  static func redacted(range: JSONValue) -> JSONValue {
    guard var members = range.object, case .array(let days)? = members["days"] else { return range }
    members["days"] = .array(days.map { redacted(day: $0) })
    return .object(members)
  }
}
