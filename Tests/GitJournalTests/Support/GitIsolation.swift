import Foundation

@testable import GitReader

/// The test process reads no git config of whoever runs the tests: before the first fixture is made, its `HOME` and
/// `XDG_CONFIG_HOME` become an empty folder of its own (libgit2, the stamps of the global config files and `~/`
/// paths all go by them), libgit2's global, XDG and system config files are looked for there too (whenever libgit2
/// was set up), and git's own variables that name config files are gone. Each `git` a test runs gets a HOME of its
/// test besides (see `TemporaryRepository.gitEnvironment`, `HookWorld.environment`).
enum GitIsolation {
  /// The empty folder, removed when the process exits.
  static let home: String = {
    var template = Array((NSTemporaryDirectory() + "/gitjournal-tests-home.XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    let folder = made.map { String(cString: $0) } ?? NSTemporaryDirectory()
    setenv("HOME", folder, 1)
    setenv("XDG_CONFIG_HOME", folder + "/.config", 1)
    setenv("GIT_CONFIG_NOSYSTEM", "1", 1)
    for name in ["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"] {
      unsetenv(name)
    }
    LibGit2.readConfigFiles(in: folder)
    if made != nil { atexit { _ = rmdir(GitIsolation.home) } }
    return folder
  }()

  /// Makes the isolation, once; cheap afterwards.
  static func ensure() { _ = home }
}
