import Foundation

/// A child run the way a GUI git client runs `git commit`: its output on a pipe that is read to the end. The
/// run is over only when every process holding the pipe's write end (a hook's background child included)
/// has let go of it, which is what the measured time includes.
struct PipedRun {
  let status: Int32
  /// Standard output and standard error, interleaved.
  let output: String
  /// From the start until the pipe's end of file and the child's exit, whichever is later.
  let seconds: Double

  static func run(_ executable: String, _ arguments: [String], environment: [String: String], in directory: String)
    throws -> PipedRun
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    let stopwatch = Stopwatch()
    // `run()` closes this process's copy of the write end: from here on only the child and its children hold it.
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let seconds = stopwatch.seconds
    try? pipe.fileHandleForReading.close()
    return PipedRun(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self), seconds: seconds)
  }

  /// The middle value (the mean of the two middle ones for an even count).
  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
