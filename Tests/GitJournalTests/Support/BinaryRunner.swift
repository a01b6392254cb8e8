import Foundation

/// Finds and runs the built `gitjournal` executable, for the end-to-end tests.
enum BinaryRunner {
  /// The executable's path. `swift test` builds it into the same products folder as the test bundle; an
  /// explicit `GITJOURNAL_BINARY` wins.
  static func executable(filePath: String = #filePath) throws -> String {
    var candidates: [String] = []
    if let explicit = ProcessInfo.processInfo.environment["GITJOURNAL_BINARY"], !explicit.isEmpty {
      candidates.append(explicit)
    }
    // The products folder is an ancestor of the running test executable (on Linux its parent; on macOS the
    // parent of the .xctest bundle).
    for start in [testExecutablePath(), Bundle.main.bundlePath].compactMap({ $0 }) {
      var folder = (start as NSString).deletingLastPathComponent
      while folder.count > 1 {
        candidates.append(folder + "/gitjournal")
        folder = (folder as NSString).deletingLastPathComponent
      }
    }
    // Tests/GitJournalCoreTests/Support/BinaryRunner.swift -> the package root.
    var root = filePath
    for _ in 0..<4 { root = (root as NSString).deletingLastPathComponent }
    candidates.append(root + "/.build/debug/gitjournal")

    for candidate in candidates where isExecutableFile(candidate) { return candidate }
    throw ScratchError(
      "the gitjournal executable was not found; run 'swift build' before 'swift test' "
        + "or set GITJOURNAL_BINARY. Looked at: \(candidates.joined(separator: ", "))")
  }

  /// Runs the binary with exactly `environment`.
  static func run(_ arguments: [String], environment: [String: String], currentDirectory: String) throws
    -> ProcessResult
  {
    try Subprocess.run(try executable(), arguments, environment: environment, currentDirectory: currentDirectory)
  }

  /// Starts the binary and returns without waiting.
  static func start(_ arguments: [String], environment: [String: String], currentDirectory: String) throws
    -> Subprocess
  {
    try Subprocess(try executable(), arguments, environment: environment, currentDirectory: currentDirectory)
  }

  private static func testExecutablePath() -> String? {
    if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return link }
    return Bundle.main.executablePath ?? CommandLine.arguments.first
  }

  private static func isExecutableFile(_ path: String) -> Bool {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
      && FileManager.default.isExecutableFile(atPath: path)
  }
}
