import Foundation
import Testing

@testable import CLI

extension Reliability {
  /// Every number from the network or the config is bounded before use (issue 15, item 6), proven with the built
  /// binary: hostile framings from a model server, ports and durations out of range in the config, and a pause file
  /// holding a huge number end as a clean failure or an error naming the key, never as a crash (a trap ends the
  /// process with SIGILL or SIGTRAP). A narrator killed during a request leaves a pause behind, so a server whose
  /// answer kills it is not asked again by every commit.
  @Suite struct BoundsTests {
    static let day = "2026-03-10"

    /// A sandbox with one journaled commit on `day`, written to its file, the ollama engine pointed at `url`.
    static func sandbox(url: String) throws -> JournalSandbox {
      let sandbox = try JournalSandbox()
      let repository = try sandbox.makeRepository("app")
      try repository.commit(
        file: "a.txt", content: "a\n", message: "Teach the parser about tabs", date: "\(day)T09:00:00Z")
      try sandbox.register(repository)
      try sandbox.configure("narrative.engine", "ollama")
      try sandbox.configure("narrative.url", url)
      try sandbox.configure("narrative.healthTimeout", "2")
      try sandbox.configure("narrative.timeout", "3")
      // The day's file and record, as the hook writes them: `narrate` narrates what the journal holds.
      let written = try sandbox.runBinary("rebuild", day, "--no-narrative")
      guard written.status == 0 else { throw ScratchError("rebuild failed: \(written)") }
      return sandbox
    }

    static func narrativeLog(_ sandbox: JournalSandbox) -> String {
      (try? String(contentsOfFile: sandbox.stateHome + "/gitjournal/narrative.log", encoding: .utf8)) ?? ""
    }

    static let hostileFramings: [(name: String, head: String, body: String)] = [
      ("negative Content-Length", "Content-Length: -1", "{}"),
      ("Content-Length past Int", "Content-Length: 99999999999999999999", "{}"),
      ("Content-Length of Int.max", "Content-Length: 9223372036854775807", "{}"),
      ("negative chunk size", "Transfer-Encoding: chunked", "-1\r\n{}\r\n0\r\n\r\n"),
      ("chunk size 7fffffffffffffff", "Transfer-Encoding: chunked", "7fffffffffffffff\r\n{}\r\n0\r\n\r\n"),
      ("chunk size ffffffffffffffff", "Transfer-Encoding: chunked", "ffffffffffffffff\r\n{}\r\n0\r\n\r\n"),
      ("chunk size past UInt64", "Transfer-Encoding: chunked", "10000000000000000\r\n{}\r\n0\r\n\r\n"),
      (
        "chunk sizes that overflow together", "Transfer-Encoding: chunked",
        "7ffffffffffffff0\r\nab\r\n7ffffffffffffff0\r\n"
      ),
    ]

    /// A server whose health check is fine and whose generation answer is framed with a hostile number: `narrate`
    /// exits 0, logs why there is no sentence and pauses.
    @Test func hostileFramingsNeverCrashTheNarrator() async throws {
      try await DedicatedThread.run {
        var passed = 0
        for framing in Self.hostileFramings {
          let raw = Array(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(framing.head)\r\n\r\n\(framing.body)".utf8)
          let server = try ModelServer { request in
            request.path == "/api/tags" ? ModelBehaviour(.ollama).action(for: request) : .respond(.raw(raw))
          }
          let sandbox = try Self.sandbox(url: server.baseURL)
          let result = try sandbox.runBinary("narrate", Self.day)
          let log = Self.narrativeLog(sandbox)
          let logged = log.contains("malformed HTTP response") || log.contains("larger than")
          #expect(result.status == 0, "\(framing.name): narrate ended with \(result.status): \(result.standardError)")
          #expect(logged, "\(framing.name): narrative.log says \(log)")
          #expect(server.generationRequestCount == 1, "\(framing.name)")
          if result.status == 0 && logged { passed += 1 }
        }
        ReliabilityTable.record(
          "bounds: hostile HTTP framing, real binary", tried: Self.hostileFramings.count, passed: passed, dataLost: 0)
      }
    }

    static let outOfRange: [(key: String, value: String)] = [
      ("narrative.url", "http://127.0.0.1:65536"), ("narrative.url", "http://127.0.0.1:0"),
      ("narrative.url", "http://[::1]:70000"), ("narrative.url", "http://127.0.0.1:99999999999999999999"),
      ("narrative.retryDelay", "1e300"), ("narrative.retryDelay", "1e11"), ("narrative.retryDelay", "inf"),
      ("narrative.retryDelay", "nan"), ("narrative.retryDelay", "0"), ("narrative.timeout", "1e300"),
      ("narrative.timeout", "1e400ms"), ("narrative.healthTimeout", "0"), ("narrative.healthTimeout", "2h"),
      ("narrative.temperature", "nan"), ("narrative.temperature", "inf"), ("narrative.temperature", "2.5"),
    ]

    /// Each value out of its documented bounds is an error naming the key and the value for `narrate`, `show` and
    /// `doctor`; none of them crashes. (Before the bounds, `narrate` trapped on the port and, once the refused
    /// health check paused it, on the retry delay.)
    @Test func numbersOutOfRangeInTheConfigAreErrors() async throws {
      try await DedicatedThread.run {
        let sandbox = try Self.sandbox(url: try ModelServer.refusingURL())
        let refusing = try ModelServer.refusingURL()
        var passed = 0
        for (key, value) in Self.outOfRange {
          try sandbox.configure("narrative.url", refusing)
          try sandbox.configure(key, value)
          defer {
            try? sandbox.unset(key)
            unlink(sandbox.stateHome + "/gitjournal/narrative-backoff")
          }
          var ok = true
          for command in [["narrate", Self.day], ["show", Self.day, "--json"]] {
            let result = try BinaryRunner.run(
              command, environment: sandbox.binaryEnvironment, currentDirectory: sandbox.home)
            let named = result.standardError.contains(key) && result.standardError.contains("'\(value)'")
            #expect(
              result.status == ExitStatus.failure && named,
              "\(key) = \(value), \(command[0]): \(result.hookTestSummary)")
            ok = ok && result.status == ExitStatus.failure && named
          }
          let doctor = try sandbox.runBinary("doctor")
          let listed = doctor.standardOutput.contains(key) && doctor.standardOutput.contains("'\(value)'")
          #expect(doctor.status == ExitStatus.failure && listed, "\(key) = \(value), doctor: \(doctor)")
          if ok && doctor.status == ExitStatus.failure && listed { passed += 1 }
        }
        ReliabilityTable.record(
          "bounds: config numbers out of range", tried: Self.outOfRange.count, passed: passed, dataLost: 0)
      }
    }

    /// The URL parts Foundation accepts but no socket can use are refused before any connection too when they come
    /// from OLLAMA_HOST, which is not checked with the config.
    @Test func ollamaHostWithAnImpossiblePortIsRefusedCleanly() async throws {
      try await DedicatedThread.run {
        let sandbox = try Self.sandbox(url: "http://127.0.0.1:1")
        try sandbox.unset("narrative.url")
        for host in ["127.0.0.1:65536", "127.0.0.1:99999999999999999999", "[::1]:70000"] {
          var environment = sandbox.binaryEnvironment
          environment["OLLAMA_HOST"] = host
          let result = try BinaryRunner.run(
            ["narrate", Self.day], environment: environment, currentDirectory: sandbox.home)
          #expect(result.status == 0, "OLLAMA_HOST=\(host): \(result.hookTestSummary)")
          #expect(Self.narrativeLog(sandbox).contains("is not a valid URL"), "OLLAMA_HOST=\(host)")
        }
      }
    }

    /// A pause file with a huge, infinite or negative time (an older gitjournal wrote `1e300` after a retry delay of
    /// 1e300) is ignored: `doctor` reports no pause instead of crashing, and the narrator asks the server.
    @Test(arguments: ["1e+300", "inf", "nan", "-1e300", "1e11"])
    func aPauseFileWithAHugeNumberIsIgnored(until: String) async throws {
      try await DedicatedThread.run {
        let server = try ModelServer(ModelBehaviour(.ollama))
        let sandbox = try Self.sandbox(url: server.baseURL)
        let state = sandbox.stateHome + "/gitjournal"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try "\(until)\tollama \(server.baseURL)\tthe old narrator failed\n".write(
          toFile: state + "/narrative-backoff", atomically: true, encoding: .utf8)
        let doctor = try sandbox.runBinary("doctor")
        #expect(doctor.status == 0, "\(doctor)")
        #expect(!doctor.standardOutput.contains("pausing"), "\(doctor.standardOutput)")
        let narrate = try sandbox.runBinary("narrate", Self.day)
        #expect(narrate.status == 0, "\(narrate)")
        // The day, then its week and its month.
        #expect(server.generationRequestCount == 3)
        #expect(sandbox.journalFile(Self.day)?.contains(ModelBehaviour.sentence) == true)
      }
    }

    /// A narrator killed while it waits for the model's answer (as a crash would end it) leaves a pause: the next
    /// narrator asks nothing until `retryDelay` has passed, so a crash cannot loop on every commit.
    @Test func aNarratorKilledDuringARequestLeavesAPause() async throws {
      let server = try ModelServer(ModelBehaviour(.ollama, generationFault: .silent))
      let sandbox = try Self.sandbox(url: server.baseURL)
      try sandbox.configure("narrative.timeout", "30")
      let narrator = try ChildProcess(
        try BinaryRunner.executable(), ["narrate", Self.day], environment: sandbox.binaryEnvironment,
        currentDirectory: sandbox.home)
      let asked = await server.waitUntil(timeout: 10) { $0.generationRequestCount == 1 }
      narrator.kill()
      try #require(asked, "the narrator never asked; narrative.log: \(Self.narrativeLog(sandbox))")
      let seen = server.requests.count

      let next = try sandbox.runBinary("narrate", Self.day)
      #expect(next.status == 0, "\(next)")
      #expect(server.requests.count == seen, "the next narrator asked again: \(server.requests.map(\.path))")
      let doctor = try sandbox.runBinary("doctor")
      #expect(doctor.standardOutput.contains("pausing for"), "\(doctor.standardOutput)")
    }
  }
}
