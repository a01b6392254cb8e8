import Foundation

/// The base of every fixture that runs gitjournal as a user would: a temporary folder holding a HOME with a git
/// identity (`GitHome`), gitjournal's config file in its default place and the journal folder. The fixtures
/// differ only in how they run things: `JournalSandbox` runs gitjournal in process or as the binary with the
/// XDG folders spelled out; `HookWorld` runs `git` and the binary with nothing but HOME, as a hook sees them;
/// `NarrativeWorld` adds a model server to a `HookWorld`.
final class ScratchHome: Sendable {
  let scratch: ScratchDirectory

  var home: String { scratch.path("home") }
  var configPath: String { home + "/.config/gitjournal/config" }
  var journalDirectory: String { home + "/journal" }

  init(_ label: String, name: String, email: String) throws {
    scratch = try ScratchDirectory(label)
    try GitHome.write(home: home, name: name, email: email)
  }

  /// Sets one key in the config file with `git config -f`.
  func configure(_ key: String, _ value: String) throws {
    try gitConfig([key, value])
  }

  /// Adds another value to a multi-valued key.
  func addConfiguration(_ key: String, _ value: String) throws {
    try gitConfig(["--add", key, value])
  }

  /// Removes a key (every value of it) from the config file.
  func unset(_ key: String) throws {
    try gitConfig(["--unset-all", key])
  }

  private func gitConfig(_ arguments: [String]) throws {
    try FileManager.default.createDirectory(
      atPath: (configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let result = try Subprocess.run(
      Subprocess.gitExecutable, ["config", "-f", configPath] + arguments,
      environment: TemporaryRepository.gitEnvironment(home: home), currentDirectory: scratch.path)
    guard result.status == 0 else { throw ScratchError("git config \(arguments) failed: \(result.standardError)") }
  }

  /// The journal file of `day` (`YYYY-MM-DD`), or nil when there is none.
  func journalFile(_ day: String) -> String? {
    FileManager.default.contents(atPath: journalDirectory + "/\(day).md").map { String(decoding: $0, as: UTF8.self) }
  }

  /// The journal folder's files, without the folder of day records (`.gitjournal`), sorted.
  func journalFolderNames() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: journalDirectory)) ?? []).filter { $0 != ".gitjournal" }
      .sorted()
  }
}
