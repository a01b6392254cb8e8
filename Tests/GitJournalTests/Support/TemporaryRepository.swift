import Foundation

/// A git repository in a temporary folder, made and changed with the `git` command line.
///
/// Every `git` runs with a clean environment: no GIT_DIR, GIT_INDEX_FILE or GIT_WORK_TREE from outside, a
/// HOME of its own with a known identity, and no system config, so the machine's git settings never leak in.
final class TemporaryRepository: Sendable {
  /// The identity whose commits the journal counts in most tests.
  static let email = "ada@example.com"
  static let name = "Ada Lovelace"

  /// Keeps the folder alive as long as the repository is.
  let owner: ScratchDirectory
  /// The working tree.
  let path: String
  /// The HOME every `git` of this repository runs with.
  let gitHome: String

  /// Makes `name` inside `parent` (or a new scratch folder) and, unless `initialize` is false, runs `git init`.
  init(named name: String = "project", in parent: ScratchDirectory? = nil, initialize: Bool = true) throws {
    owner = try parent ?? ScratchDirectory("gitjournal-repo")
    path = try owner.makeFolder(name)
    gitHome = owner.path(".git-home")
    try Self.writeGitHome(gitHome)
    if initialize { try git("init", "-q", "-b", "main") }
  }

  /// Wraps an existing working tree (for example a clone) made with `git` in `owner`.
  init(existingAt path: String, owner: ScratchDirectory) throws {
    self.owner = owner
    self.path = path
    gitHome = owner.path(".git-home")
    try Self.writeGitHome(gitHome)
  }

  private static func writeGitHome(_ home: String) throws {
    try GitHome.write(home: home, name: name, email: email)
  }

  /// The environment every `git` child gets: the test process's, minus every `GIT_*` variable, plus ours.
  static func gitEnvironment(home: String, extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") }
    environment["HOME"] = home
    environment["XDG_CONFIG_HOME"] = home + "/.config"
    environment["GIT_CONFIG_NOSYSTEM"] = "1"
    environment["GIT_TERMINAL_PROMPT"] = "0"
    environment["LC_ALL"] = "C"
    environment["TZ"] = "UTC"
    environment["GIT_AUTHOR_NAME"] = name
    environment["GIT_COMMITTER_NAME"] = name
    environment["GIT_AUTHOR_EMAIL"] = email
    environment["GIT_COMMITTER_EMAIL"] = email
    environment.merge(extra) { _, new in new }
    return environment
  }

  /// Runs `git` in the working tree (or `directory`) and returns its result, whatever the status.
  func gitResult(
    _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil, input: Data? = nil
  ) throws -> ProcessResult {
    try Subprocess.run(
      Subprocess.gitExecutable, arguments, environment: Self.gitEnvironment(home: gitHome, extra: environment),
      currentDirectory: directory ?? path, input: input)
  }

  /// Runs `git` and returns its standard output; a non-zero status is an error that shows git's stderr.
  @discardableResult
  func git(_ arguments: String..., environment: [String: String] = [:]) throws -> String {
    try git(arguments, environment: environment)
  }

  @discardableResult
  func git(
    _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil, input: Data? = nil
  ) throws -> String {
    let result = try gitResult(arguments, environment: environment, in: directory, input: input)
    guard result.status == 0 else {
      throw ScratchError("git \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.standardError)")
    }
    return result.standardOutput
  }

  /// Writes a file of the working tree (creating folders), without staging it.
  func write(_ content: String, to file: String) throws {
    try write(bytes: Array(content.utf8), to: file)
  }

  func write(bytes: [UInt8], to file: String) throws {
    let full = path + "/" + file
    try FileManager.default.createDirectory(
      atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: full))
  }

  /// The dates and identity of a commit, as git's environment variables.
  static func identity(date: String, committerDate: String?, email: String) -> [String: String] {
    [
      "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": committerDate ?? date, "GIT_AUTHOR_EMAIL": email,
      "GIT_COMMITTER_EMAIL": email,
    ]
  }

  /// Writes `content` to `file` (when given), stages everything and commits. `date` is the author date in any
  /// form git reads (`2026-03-10T09:00:00+01:00`, `1773130000 +0100`); the committer date defaults to it.
  /// Returns the new commit's id.
  @discardableResult
  func commit(
    file: String? = nil, content: String = "", message: String, date: String, email: String = email,
    committerDate: String? = nil
  ) throws -> String {
    if let file { try write(content, to: file) }
    try git("add", "-A")
    let environment = Self.identity(date: date, committerDate: committerDate, email: email)
    try git(["commit", "-q", "--allow-empty", "-m", message], environment: environment)
    return try headID()
  }

  /// Commits nothing new (`--allow-empty`, no staging): one `git` call, for tests that only need many dated
  /// commits.
  func emptyCommit(message: String, date: String, email: String = email) throws {
    let environment = Self.identity(date: date, committerDate: nil, email: email)
    try git(["commit", "-q", "--allow-empty", "-m", message], environment: environment)
  }

  /// The id HEAD points at.
  func headID() throws -> String {
    try git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
