import Foundation

extension JournalSandbox {
  /// Removes a key from the config file.
  func runGitConfigUnset(_ key: String) throws {
    let result = try Subprocess.run(
      Subprocess.gitExecutable, ["config", "-f", configPath, "--unset-all", key],
      environment: TemporaryRepository.gitEnvironment(home: home), currentDirectory: scratch.path)
    guard result.status == 0 else {
      throw ScratchError("git config --unset-all \(key) failed: \(result.standardError)")
    }
  }
}
