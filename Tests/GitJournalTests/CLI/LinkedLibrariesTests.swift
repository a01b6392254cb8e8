import Foundation
import Testing

/// How the executable is linked (Package.swift, `libgit2Static`): libgit2 and what it needs are inside it, so a
/// hook's start loads no shared library for network transports that gitjournal never uses.
@Suite struct LinkedLibrariesTests {
  #if os(Linux)
    @Test func libgit2AndItsTransportsAreLinkedIn() throws {
      let binary = try BinaryRunner.executable()
      let result = try Subprocess.run(
        "/usr/bin/ldd", [binary], environment: ProcessInfo.processInfo.environment, currentDirectory: "/")
      #expect(result.status == 0, "\(result)")
      let loaded = result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      #expect(loaded.contains { $0.hasPrefix("libc.so") }, "ldd listed: \(loaded)")
      for library in ["libgit2", "libgssapi", "libkrb5", "libssl", "libcrypto", "libssh2", "libmbed", "libhttp_parser"]
      {
        #expect(!loaded.contains { $0.hasPrefix(library) }, "\(library) is loaded at start: \(loaded)")
      }
    }
  #endif
}
