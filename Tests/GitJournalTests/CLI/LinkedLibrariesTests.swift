import Foundation
import Testing

@testable import CLI

#if os(Linux)
  import CLibgit2
  @testable import GitReader
#endif

/// How the executable is linked (Package.swift): where the system has every static archive, libgit2 and what it
/// needs, and libdeflate, are inside it, so a hook's start loads no shared library for network transports that
/// gitjournal never uses, nor for the pack reader; elsewhere they are shared libraries, and the build says which.
@Suite struct LinkedLibrariesTests {
  @Test func versionVerboseSaysHowLibgit2IsLinked() async throws {
    let sandbox = try JournalSandbox()
    let result = await sandbox.run("--version", "--verbose")
    #expect(result.status == ExitStatus.success)
    #if GITJOURNAL_STATIC_LIBGIT2
      #expect(result.standardOutput.contains(": linked in from its static archives"), "\(result)")
    #else
      #expect(result.standardOutput.contains(": a shared library"), "\(result)")
    #endif
    let plain = await sandbox.run("--version")
    #expect(plain.standardOutput == "gitjournal \(CLI.version)\n")
  }

  #if os(Linux)
    /// The libraries `ldd` lists for the built executable.
    private func loadedLibraries() throws -> [String] {
      let binary = try BinaryRunner.executable()
      let result = try Subprocess.run(
        "/usr/bin/ldd", [binary], environment: ProcessInfo.processInfo.environment, currentDirectory: "/")
      #expect(result.status == 0, "\(result)")
      return result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func libgit2IsLinkedAsTheBuildSays() throws {
      let loaded = try loadedLibraries()
      #expect(loaded.contains { $0.hasPrefix("libc.so") }, "ldd listed: \(loaded)")
      #if GITJOURNAL_STATIC_LIBGIT2
        for library in [
          "libgit2", "libgssapi", "libkrb5", "libssl", "libcrypto", "libssh2", "libmbed", "libhttp_parser",
        ] {
          #expect(!loaded.contains { $0.hasPrefix(library) }, "\(library) is loaded at start: \(loaded)")
        }
      #else
        #expect(loaded.contains { $0.hasPrefix("libgit2") }, "ldd listed: \(loaded)")
      #endif
      #if GITJOURNAL_STATIC_LIBDEFLATE
        #expect(!loaded.contains { $0.hasPrefix("libdeflate") }, "libdeflate is loaded at start: \(loaded)")
      #else
        #expect(loaded.contains { $0.hasPrefix("libdeflate") }, "ldd listed: \(loaded)")
      #endif
    }
  #endif

  #if os(Linux) && GITJOURNAL_STATIC_LIBGIT2

    /// Why libgit2 refused to connect to `url` from a new repository; nil when it connected.
    private func refusal(connecting url: String) throws -> String? {
      let repository = try TemporaryRepository()
      LibGit2.ensureInitialized()
      var handle: OpaquePointer?
      try #require(git_repository_open(&handle, repository.path) == 0)
      defer { git_repository_free(handle) }
      var remote: OpaquePointer?
      try #require(git_remote_create_anonymous(&remote, handle, url) == 0)
      defer { git_remote_free(remote) }
      guard git_remote_connect(remote, GIT_DIRECTION_FETCH, nil, nil, nil) < 0 else { return nil }
      return git_error_last().map { String(cString: $0.pointee.message) } ?? ""
    }

    /// libgit2's TLS is not set up (`Sources/CLibgit2Link`): asked for an https remote, it refuses with a message
    /// that says why, before any connection, and nothing crashes on the setup that was skipped.
    @Test func anHTTPSRemoteIsRefusedForWantOfTLS() throws {
      let message = try refusal(connecting: "https://127.0.0.1:9/none.git")
      #expect(message?.contains("TLS is not available") == true, "\(message ?? "connected")")
    }

    /// libgit2's SSH transport is not set up either: an ssh remote is refused with the reason, before any
    /// connection (port 9 on loopback would refuse one anyway, with another message).
    @Test func anSSHRemoteIsRefused() throws {
      for url in ["ssh://git@127.0.0.1:9/none.git", "git@127.0.0.1:none.git"] {
        let message = try refusal(connecting: url)
        #expect(message?.contains("SSH is not available") == true, "\(url): \(message ?? "connected")")
      }
    }
  #endif
}
