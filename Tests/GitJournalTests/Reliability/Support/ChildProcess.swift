import Foundation

/// A child process a test may kill with SIGKILL at any moment. Its output is discarded: a killed child's
/// output means nothing, and a pipe nobody reads could block it.
final class ChildProcess {
  private let process = Process()
  let startedAt = Date()

  init(_ executable: String, _ arguments: [String], environment: [String: String], currentDirectory: String) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory)
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
  }

  var pid: pid_t { process.processIdentifier }
  var isRunning: Bool { process.isRunning }

  /// SIGKILL, then waits for the child to be gone. True when the signal killed it (it had not exited yet).
  @discardableResult
  func kill() -> Bool {
    if process.isRunning { _ = systemKill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
  }

  /// Waits up to `timeout` seconds for the child to exit; its status, or nil after killing a child that did not
  /// finish in time.
  func wait(timeout: Double) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(2_000) }
    if process.isRunning {
      kill()
      return nil
    }
    process.waitUntilExit()
    return process.terminationStatus
  }
}

private func systemKill(_ pid: pid_t, _ signal: Int32) -> Int32 { kill(pid, signal) }
