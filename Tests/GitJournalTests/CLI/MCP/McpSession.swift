import Foundation

@testable import CLI

/// A `gitjournal mcp` process driven over a pipe, as an assistant drives it: requests are written to its stdin as
/// they come, its answers (to a file, read back) are parsed one per line.
final class McpSession {
  private let process = Process()
  private let input = Pipe()
  private let outputPath: String
  private var nextID = 1

  init(_ sandbox: JournalSandbox) throws {
    outputPath = sandbox.scratch.path("mcp-output-\(UUID().uuidString).jsonl")
    FileManager.default.createFile(atPath: outputPath, contents: nil)
    process.executableURL = URL(fileURLWithPath: try BinaryRunner.executable())
    process.arguments = ["mcp"]
    process.environment = sandbox.binaryEnvironment
    process.currentDirectoryURL = URL(fileURLWithPath: sandbox.home)
    process.standardInput = input
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    process.standardError = FileHandle.nullDevice
    try process.run()
  }

  deinit {
    if process.isRunning { process.terminate() }
  }

  var pid: Int32 { process.processIdentifier }

  /// Writes `text` as it is, line feed included or not.
  func write(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

  func write(bytes: Data) { input.fileHandleForWriting.write(bytes) }

  /// Sends a request and returns its id.
  @discardableResult
  func request(_ method: String, _ params: [String: Any]? = nil) throws -> Int {
    let id = nextID
    nextID += 1
    var message: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method]
    if let params { message["params"] = params }
    write(String(decoding: try JSONSerialization.data(withJSONObject: message), as: UTF8.self) + "\n")
    return id
  }

  func notify(_ method: String) { write("{\"jsonrpc\":\"2.0\",\"method\":\"\(method)\"}\n") }

  /// The handshake: `initialize` with `version`, then the `initialized` notification.
  func initialize(version: String = "2025-06-18") throws {
    try request(
      "initialize",
      [
        "protocolVersion": version, "capabilities": [:] as [String: Any],
        "clientInfo": ["name": "test", "version": "1"],
      ]
    )
    notify("notifications/initialized")
  }

  /// The answers written so far, in order.
  var answers: [JSONValue] {
    let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
  }

  /// Every line the server wrote, whole.
  var outputText: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

  /// Waits until the answer to `id` is there (or the server exited) and returns it.
  func answer(to id: Int) -> JSONValue? {
    while true {
      if let found = answers.first(where: { $0["id"] == .integer(id) }) { return found }
      if !process.isRunning { return answers.first { $0["id"] == .integer(id) } }
      usleep(5_000)
    }
  }

  /// Closes stdin and waits for the server to exit; returns its status.
  func finish() -> Int32 {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// The most memory the server has held so far, in kilobytes (Linux's VmHWM); nil elsewhere.
  var peakMemoryKilobytes: Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    return line.flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") }
  }
}
