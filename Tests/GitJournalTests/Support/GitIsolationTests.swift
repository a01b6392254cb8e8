import CLibgit2
import Foundation
import Testing

@testable import GitReader

/// The suite reads no git config of whoever runs it (an `[include]` in `~/.gitconfig`, as `install --global` adds,
/// once made stored reads miss): libgit2 in this process and every `git` a test runs find no global config file.
@Suite struct GitIsolationTests {
  @Test func noGlobalConfigOfTheUserIsRead() throws {
    let repository = try TemporaryRepository()
    #expect(ProcessInfo.processInfo.environment["HOME"] == GitIsolation.home)
    LibGit2.ensureInitialized()
    var found = git_buf()
    defer { git_buf_dispose(&found) }
    #expect(git_config_find_global(&found) == GIT_ENOTFOUND.rawValue, "libgit2 found a global config file")
    #expect(git_config_find_xdg(&found) == GIT_ENOTFOUND.rawValue, "libgit2 found an XDG config file")
    #expect(git_config_find_system(&found) == GIT_ENOTFOUND.rawValue, "libgit2 found a system config file")
    // git itself reads the HOME its test gives it: the identity written there, nothing else global.
    let origins = try repository.git("config", "--show-origin", "--list", "--global")
    #expect(origins.split(separator: "\n").allSatisfy { $0.contains(repository.gitHome) }, "\(origins)")
  }
}
