import Foundation
import Testing

@testable import CLI

/// One commit made through `git commit`, as the hook tests check it.
struct HookCommit: Sendable {
  let id: String
  /// The author day in UTC, as `git log --date=format-local:%Y-%m-%d` prints it.
  let day: String
  let subject: String
  /// What `git commit` itself left: the installed hooks write here.
  let status: Int32
  let standardError: String

  var shortID: String { String(id.prefix(7)) }
  /// How the journal writes the id: in backticks, so a count never matches inside another word.
  var journalID: String { "`\(shortID)`" }
}

/// A user's machine for the hook tests, in one temporary folder: a HOME with a git identity (and so the
/// default config, state and journal folders), repositories, and a fully controlled environment shared by
/// `git` and the built `gitjournal` binary. The hooks run inside `git commit`, so they see exactly this
/// environment: no XDG_* variables, no GIT_* from outside, no system git config, and a PATH on which no
/// `gitjournal` can be found.
final class HookWorld: Sendable {
  let scratchHome: ScratchHome
  /// The built binary every test installs with unless it says otherwise.
  let binary: String
  /// The test process's PATH without any folder that holds a `gitjournal`.
  let searchPath: String

  var scratch: ScratchDirectory { scratchHome.scratch }
  var home: String { scratchHome.home }
  var journalDirectory: String { scratchHome.journalDirectory }
  var configPath: String { scratchHome.configPath }
  var hookLogPath: String { home + "/.local/state/gitjournal/hook.log" }

  static let email = "grace@example.com"
  static let name = "Grace Hopper"

  init() throws {
    scratchHome = try ScratchHome("gitjournal-hooks", name: Self.name, email: Self.email)
    binary = try BinaryRunner.executable()
    let inherited = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    searchPath = inherited.split(separator: ":").map(String.init).filter {
      !$0.isEmpty && !FileManager.default.fileExists(atPath: $0 + "/gitjournal")
    }.joined(separator: ":")
    // No language model: a hook would otherwise start a detached narrator that outlives the test and talks to
    // whatever Ollama server the machine runs. The hooks themselves are the same either way.
    try configure("narrative.engine", "off")
  }

  /// Sets one key in the config file with `git config -f`.
  func configure(_ key: String, _ value: String) throws { try scratchHome.configure(key, value) }

  /// Removes a key from the config file.
  func unset(_ key: String) throws { try scratchHome.unset(key) }

  /// Every child's whole environment: nothing else is inherited.
  var environment: [String: String] {
    var variables = [
      "HOME": home, "PATH": searchPath, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "TZ": "UTC",
      "LANG": "C.UTF-8",
      // The hook's narrator asks at once, as the tests of what it asks expect; `LazyNarrationTests` set a wait.
      HookRunner.settleVariable: "0",
    ]
    if let temporary = ProcessInfo.processInfo.environment["TMPDIR"] { variables["TMPDIR"] = temporary }
    return variables
  }

  /// Runs any program with the world's environment plus `extra`.
  func run(
    _ executable: String, _ arguments: [String], in directory: String, environment extra: [String: String] = [:]
  ) throws -> ProcessResult {
    try Subprocess.run(
      executable, arguments, environment: environment.merging(extra) { _, new in new }, currentDirectory: directory)
  }

  /// Runs `git` in `directory`, whatever its exit status.
  func gitResult(_ arguments: [String], in directory: String, environment extra: [String: String] = [:]) throws
    -> ProcessResult
  {
    try run(Subprocess.gitExecutable, arguments, in: directory, environment: extra)
  }

  /// Runs `git` and returns its standard output; a failure is an error carrying git's stderr.
  @discardableResult
  func git(_ arguments: [String], in directory: String, environment extra: [String: String] = [:]) throws -> String {
    let result = try gitResult(arguments, in: directory, environment: extra)
    guard result.status == 0 else {
      throw ScratchError("git \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.standardError)")
    }
    return result.standardOutput
  }

  /// Runs the gitjournal binary (or another copy of it) in `directory`.
  func gitjournal(_ arguments: String..., in directory: String, binary: String? = nil) throws -> ProcessResult {
    try run(binary ?? self.binary, arguments, in: directory)
  }

  /// A new repository at `relative` with gitjournal's hooks installed in it (`gitjournal install`).
  func makeInstalledRepository(_ relative: String) throws -> String {
    let repository = try makeRepository(relative)
    let installed = try gitjournal("install", in: repository)
    guard installed.status == 0 else { throw ScratchError("install failed: \(installed.standardError)") }
    return repository
  }

  /// A new repository at `relative` inside the world, with `git init`.
  func makeRepository(_ relative: String, bare: Bool = false) throws -> String {
    let path = try scratch.makeFolder(relative)
    try git(["init", "-q"] + (bare ? ["--bare"] : []), in: path)
    return path
  }

  /// Writes a file (a new one each time unless named) and commits everything with `git commit`, with the
  /// given dates (any form git reads; nil lets git use the clock), `-c` settings and variables on top of the
  /// world's environment. The commit must succeed.
  @discardableResult
  func commit(
    in repository: String, _ subject: String, file: String? = nil, authorDate: String? = nil,
    committerDate: String? = nil, extraArguments: [String] = [], configuration: [String: String] = [:],
    environment extra: [String: String] = [:]
  ) throws -> HookCommit {
    let name = file ?? "file-\(UUID().uuidString).txt"
    try Data("\(subject)\n".utf8).write(to: URL(fileURLWithPath: repository + "/" + name))
    try git(["add", "-A"], in: repository)
    var variables = extra
    if let authorDate { variables["GIT_AUTHOR_DATE"] = authorDate }
    if let committerDate { variables["GIT_COMMITTER_DATE"] = committerDate }
    let options = configuration.sorted { $0.key < $1.key }.flatMap { ["-c", "\($0.key)=\($0.value)"] }
    let result = try gitResult(
      options + ["commit", "-m", subject] + extraArguments, in: repository, environment: variables)
    guard result.status == 0 else {
      throw ScratchError("git commit in \(repository) failed (\(result.status)): \(result.standardError)")
    }
    return try describe("HEAD", in: repository, status: result.status, standardError: result.standardError)
  }

  /// The id, author day and subject of `revision`.
  func describe(_ revision: String, in repository: String, status: Int32 = 0, standardError: String = "") throws
    -> HookCommit
  {
    let fields = try git(
      ["log", "-1", "--date=format-local:%Y-%m-%d", "--format=%H%x1f%ad%x1f%s", revision], in: repository
    ).trimmingCharacters(in: .newlines).split(separator: "\u{1f}", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 3 else { throw ScratchError("cannot read commit \(revision) in \(repository)") }
    return HookCommit(id: fields[0], day: fields[1], subject: fields[2], status: status, standardError: standardError)
  }

  /// The ids of `range` (`git rev-list`), newest first.
  func revisions(_ range: String, in repository: String) throws -> [String] {
    try git(["rev-list", range], in: repository).split(separator: "\n").map(String.init)
  }

  /// The journal file of `day` (`YYYY-MM-DD`), or nil when there is none.
  func journal(_ day: String) -> String? { scratchHome.journalFile(day) }

  /// The journal folder's files, without the folder of day records (`.gitjournal`), sorted.
  func journalFolderNames() -> [String] { scratchHome.journalFolderNames() }

  /// The lines of the hook log (none when there is no log).
  func hookLogLines() -> [String] {
    guard let data = FileManager.default.contents(atPath: hookLogPath) else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// The `repo.<name>.path` values of the repositories still journaled: retired ones (`repo.<name>.retired`,
  /// set by `uninstall`) are left out.
  func journaledPaths() -> [String] {
    let arguments = ["config", "-f", configPath, "--null", "--get-regexp", "^repo\\."]
    guard let result = try? run(Subprocess.gitExecutable, arguments, in: home), result.status == 0 else { return [] }
    // `--null`: each entry is `key\nvalue\0`, whatever characters the name and path contain.
    var paths: [(name: String, path: String)] = []
    var retired = Set<String>()
    for entry in result.standardOutput.split(separator: "\0") {
      guard let newline = entry.firstIndex(of: "\n") else { continue }
      let key = String(entry[..<newline])
      let name = String(key.dropFirst("repo.".count).split(separator: ".").dropLast().joined(separator: "."))
      if key.hasSuffix(".path") { paths.append((name, String(entry[entry.index(after: newline)...]))) }
      if key.hasSuffix(".retired") { retired.insert(name) }
    }
    return paths.filter { !retired.contains($0.name) }.map(\.path)
  }

  /// A copy of the binary at `relative` inside the world, executable.
  func copyBinary(to relative: String) throws -> String {
    let destination = scratch.path(relative)
    try FileManager.default.createDirectory(
      atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    // Written through a close-on-exec descriptor: a copy whose write descriptor leaked into a child that another
    // test spawned at that moment would fail to run with "Text file busy".
    let bytes = try Data(contentsOf: URL(fileURLWithPath: binary))
    let descriptor = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw ScratchError("cannot create \(destination)") }
    defer { close(descriptor) }
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw ScratchError("cannot write \(destination)") }
    return destination
  }

  /// `@<seconds> +0000`: a date git reads exactly.
  static func gitDate(_ date: Date) -> String { "@\(Int64(date.timeIntervalSince1970)) +0000" }

  /// `hour`:`minute` UTC, `days` days before today (UTC).
  static func pastDate(daysAgo days: Int, hour: Int, minute: Int = 0) -> Date {
    let now = Int64(Date().timeIntervalSince1970)
    let midnight = now - now % 86_400
    return Date(timeIntervalSince1970: TimeInterval(midnight - Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60)))
  }

  /// `text` single-quoted for `sh`.
  static func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

/// A file's exact bytes and permission bits, to compare before and after.
struct HookFileSnapshot: Equatable {
  let bytes: [UInt8]
  let permissions: Int
  let inode: UInt64

  init?(_ path: String) {
    guard let data = FileManager.default.contents(atPath: path),
      let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let permissions = attributes[.posixPermissions] as? Int,
      let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
    else { return nil }
    bytes = Array(data)
    self.permissions = permissions
    self.inode = inode
  }

  /// Same content and mode, wherever it lives.
  func sameContent(as other: HookFileSnapshot?) -> Bool {
    guard let other else { return false }
    return bytes == other.bytes && permissions == other.permissions
  }
}

extension HookWorld {
  /// How many times `needle` occurs in `text`.
  static func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  /// Whether a file or folder exists at `path`.
  static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}

extension ProcessResult {
  /// Status and both streams, for failure messages.
  var hookTestSummary: String { "status \(status)\nstdout:\n\(standardOutput)\nstderr:\n\(standardError)" }
}
