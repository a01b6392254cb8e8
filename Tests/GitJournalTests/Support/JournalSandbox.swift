import Foundation

@testable import CLI
@testable import Facts
@testable import Support

/// What one gitjournal run left: exit status and both output streams.
struct CommandResult: Sendable, CustomStringConvertible {
  let status: Int32
  let standardOutput: String
  let standardError: String

  var description: String { "status \(status)\nstdout:\n\(standardOutput)\nstderr:\n\(standardError)" }
}

/// A user's world for gitjournal: a HOME with a git identity, a config file, a state folder, a journal folder
/// and repositories, all inside one temporary folder. Runs commands in process (`CLI.main`) or through the
/// built binary.
final class JournalSandbox: Sendable {
  let scratchHome: ScratchHome
  /// `TZ` for every run; the journal's time zone unless `journal.timezone` says otherwise.
  let timeZone: String

  var scratch: ScratchDirectory { scratchHome.scratch }
  var home: String { scratchHome.home }
  var configPath: String { scratchHome.configPath }
  var stateHome: String { home + "/.local/state" }
  var journalDirectory: String { scratchHome.journalDirectory }

  /// The clock of in-process runs unless a test gives another: 2026-03-10 12:00 UTC.
  static let defaultNow = Date(timeIntervalSince1970: 1_773_144_000)

  /// `author` becomes `journal.author` in the config (in-process runs cannot rely on HOME's git identity,
  /// because libgit2 reads the real process's HOME), with the journal folder and the model turned off; nil
  /// writes no config file at all.
  init(timeZone: String = "UTC", author: String? = TemporaryRepository.email) throws {
    scratchHome = try ScratchHome(
      "gitjournal-sandbox", name: TemporaryRepository.name, email: TemporaryRepository.email)
    self.timeZone = timeZone
    if let author {
      try configure("journal.dir", journalDirectory)
      try configure("journal.author", author)
      // No test may depend on a language model that happens to run on the machine.
      try configure("narrative.engine", "off")
    }
  }

  /// Sets one key in the config file with `git config -f`.
  func configure(_ key: String, _ value: String) throws { try scratchHome.configure(key, value) }

  /// Adds another value to a multi-valued key.
  func addConfiguration(_ key: String, _ value: String) throws { try scratchHome.addConfiguration(key, value) }

  /// Removes a key (every value of it) from the config file.
  func unset(_ key: String) throws { try scratchHome.unset(key) }

  /// A new repository in the sandbox, at `repos/<folder>`.
  func makeRepository(_ folder: String, initialize: Bool = true) throws -> TemporaryRepository {
    try TemporaryRepository(named: "repos/" + folder, in: scratch, initialize: initialize)
  }

  /// A repository made in `repos/<folder>` and registered under its folder's name: most suites start from one or two.
  func makeRegisteredRepository(_ folder: String) throws -> TemporaryRepository {
    let repository = try makeRepository(folder)
    try register(repository)
    return repository
  }

  /// Registers `repository` in the config as `name` (default: its folder's name).
  func register(_ repository: TemporaryRepository, as name: String? = nil) throws {
    try register(path: repository.path, as: name ?? (repository.path as NSString).lastPathComponent)
  }

  func register(path: String, as name: String) throws {
    try configure("repo.\(name).path", path)
  }

  /// The variables both kinds of run see.
  var variables: [String: String] {
    [
      "HOME": home, "GITJOURNAL_CONFIG": configPath, "XDG_STATE_HOME": stateHome,
      "XDG_CONFIG_HOME": scratch.path("home/.config"), "XDG_CACHE_HOME": scratch.path("home/.cache"), "TZ": timeZone,
    ]
  }

  func environment(now: Date = defaultNow, currentDirectory: String? = nil) -> Environment {
    let instant = now
    return Environment(variables: variables, currentDirectory: currentDirectory ?? home, now: { instant })
  }

  /// Runs a command line in process.
  func run(_ arguments: String..., now: Date = defaultNow, in directory: String? = nil) async -> CommandResult {
    await run(arguments, now: now, in: directory)
  }

  func run(_ arguments: [String], now: Date = defaultNow, in directory: String? = nil) async -> CommandResult {
    let output = TextOutput()
    let error = TextOutput()
    let status = await CLI.main(
      arguments: arguments, environment: environment(now: now, currentDirectory: directory), standardOutput: output,
      standardError: error)
    return CommandResult(status: status, standardOutput: output.text, standardError: error.text)
  }

  /// The environment of the binary: the sandbox's variables, a PATH, and no GIT_* from outside.
  var binaryEnvironment: [String: String] {
    var environment = variables
    environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    environment["GIT_CONFIG_NOSYSTEM"] = "1"
    environment["LANG"] = "C.UTF-8"
    return environment
  }

  /// Runs the built binary.
  func runBinary(_ arguments: String..., in directory: String? = nil) throws -> CommandResult {
    let result = try BinaryRunner.run(arguments, environment: binaryEnvironment, currentDirectory: directory ?? home)
    return CommandResult(
      status: result.status, standardOutput: result.standardOutput, standardError: result.standardError)
  }

  /// Runs `show <day> --json` in process and decodes it.
  func report(_ day: String, _ extra: String...) async throws -> DayReport {
    let result = await run(["show", day, "--json"] + extra)
    guard result.status == 0 else { throw ScratchError("show \(day) --json failed: \(result)") }
    return try JSONDecoder().decode(DayReport.self, from: Data(result.standardOutput.utf8))
  }

  /// The journal file of `day`, or nil.
  func journalFile(_ day: String) -> String? { scratchHome.journalFile(day) }

  /// The journal folder's files, without the folder of day records (`.gitjournal`), sorted.
  func journalFolderNames() -> [String] { scratchHome.journalFolderNames() }

  /// Every file under the folder of day records, relative to it.
  func recordFileNames() -> [String] {
    let folder = journalDirectory + "/.gitjournal"
    return ((FileManager.default.subpaths(atPath: folder)) ?? []).filter {
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: folder + "/" + $0, isDirectory: &isFolder) && !isFolder.boolValue
    }.sorted()
  }
}

extension DayReport {
  /// Every commit of the day, whatever its project.
  var allCommits: [DayReport.Commit] { projects.flatMap(\.commits) }
}
