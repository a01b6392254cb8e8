import Foundation

/// What a finished child process left: its exit status and everything it wrote.
struct ProcessResult: Sendable {
  let status: Int32
  let outputData: Data
  let errorData: Data

  var standardOutput: String { String(decoding: outputData, as: UTF8.self) }
  var standardError: String { String(decoding: errorData, as: UTF8.self) }
}

/// A child process started by a test. Its output goes to unlinked temporary files rather than pipes, so any
/// number of children can run at once without one blocking on a full pipe.
final class Subprocess {
  private let process: Process
  private let output: FileHandle
  private let error: FileHandle
  let commandLine: String

  /// Starts `executable` with exactly `environment` (nothing is inherited) in `currentDirectory`.
  init(
    _ executable: String, _ arguments: [String], environment: [String: String], currentDirectory: String,
    input: Data? = nil
  ) throws {
    commandLine = ([executable] + arguments).joined(separator: " ")
    output = try Self.anonymousFile()
    error = try Self.anonymousFile()
    var inputFile: FileHandle?
    if let input {
      let file = try Self.anonymousFile()
      file.write(input)
      try file.seek(toOffset: 0)
      inputFile = file
    }
    // An executable copied by a test a moment ago fails to start with "Text file busy" while a child that another
    // test forked meanwhile still holds the copy's write descriptor (until it execs): a few tries, a little apart.
    var tries = 0
    while true {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      process.environment = environment
      process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory)
      process.standardOutput = output
      process.standardError = error
      process.standardInput = inputFile ?? FileHandle.nullDevice
      do {
        try process.run()
        self.process = process
        break
      } catch let failure as NSError {
        let underlying = failure.userInfo[NSUnderlyingErrorKey] as? NSError
        tries += 1
        guard underlying?.code == Int(ETXTBSY) || failure.code == Int(ETXTBSY), tries < 20 else { throw failure }
        usleep(50_000)
      }
    }
  }

  /// Whether the child has not exited yet.
  var isRunning: Bool { process.isRunning }

  /// Waits for the child and collects what it wrote.
  func wait() throws -> ProcessResult {
    process.waitUntilExit()
    try output.seek(toOffset: 0)
    try error.seek(toOffset: 0)
    let result = ProcessResult(
      status: process.terminationStatus, outputData: try output.readToEnd() ?? Data(),
      errorData: try error.readToEnd() ?? Data())
    try output.close()
    try error.close()
    return result
  }

  /// Whether the child exits within `seconds`. A child that does not is left running: git's hooks inherit the
  /// descriptor through which Foundation learns that git exited, so a stuck hook has to be let go (or killed)
  /// before `wait()` can return.
  func finishes(within seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(2_000) }
    return !process.isRunning
  }

  /// Runs a child to completion.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String], currentDirectory: String,
    input: Data? = nil
  ) throws -> ProcessResult {
    try Subprocess(
      executable, arguments, environment: environment, currentDirectory: currentDirectory, input: input
    ).wait()
  }

  /// A read-write file with no name: it disappears when closed.
  private static func anonymousFile() throws -> FileHandle {
    var template = Array((NSTemporaryDirectory() + "/gitjournal-test-output.XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw ScratchError("cannot create a temporary file for process output") }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  }

  /// The full path of `git`, found once on the test process's PATH.
  static let gitExecutable: String = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = String(folder) + "/git"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return "/usr/bin/git"
  }()
}
