import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import Narrative
@testable import Support

extension Reliability {
  /// The config reader against random files: seeded random sections (known, misspelled, in other cases, with and
  /// without subsections), keys and values (numbers past every bound, NaN, infinities, ports past 65535, paths,
  /// control characters), and now and then raw bytes that are not git-config syntax at all. Nothing traps; every
  /// outcome is settings or a clean `ConfigError`; settings read without a problem are within their documented
  /// bounds, with absolute paths; and a file of known keys with good values reads without a problem, so a reader
  /// that refused everything would fail too.
  @Suite struct ConfigFuzzTests {
    static let sections = [
      "journal", "Journal", "JOURNAL", "narrative", "Narrative", "narative", "repo \"app\"", "repo \"App\"",
      "Repo \"app\"", "repo", "repos \"app\"", "journal \"x\"", "user", "include", "core", "repo \"a.b\"",
    ]
    static let keys = [
      "dir", "author", "timezone", "dayStart", "daystart", "merges", "path", "private", "privte", "engine", "url",
      "model", "temperature", "healthTimeout", "timeout", "retryDelay", "retrydelay", "allowRemote", "Path", "x",
    ]
    static let values = [
      "true", "false", "maybe", "0", "1", "-1", "60", "90s", "2m", "500ms", "1e300", "1e11", "1e400", "nan", "inf",
      "-inf", "0x10", "", " ", "04:00", "25:00", "Europe/Paris", "Mars/Olympus", "ollama", "openai", "off", "gpt",
      "http://127.0.0.1:11434", "http://127.0.0.1:65536", "http://127.0.0.1:0", "http://[::1]:70000",
      "http://127.0.0.1:99999999999999999999", "ftp://x", "~/journal", "relative/dir", "../up", "/tmp", "3", "2.5",
      "0.05", "86401", "3601", "\"quoted\"", "a\\tb", "99999999999999999999999999999",
    ]

    static func pick<T>(_ values: [T], _ random: inout SeededGenerator) -> T {
      values[Int.random(in: 0..<values.count, using: &random)]
    }

    static func randomFile(_ random: inout SeededGenerator) -> String {
      if Int.random(in: 0..<10, using: &random) == 0 {
        // Not git-config syntax: random bytes, mostly the ones that matter to the syntax.
        let bytes = (0..<Int.random(in: 0...80, using: &random)).map { _ in
          Bool.random(using: &random)
            ? UInt8.random(in: 0...255, using: &random) : pick(Array("[]\"=\\\n #;.a".utf8), &random)
        }
        return String(decoding: bytes, as: UTF8.self)
      }
      var text = ""
      for _ in 0..<Int.random(in: 0...5, using: &random) {
        text += "[\(pick(sections, &random))]\n"
        for _ in 0..<Int.random(in: 0...4, using: &random) {
          text += "\t\(pick(keys, &random)) = \(pick(values, &random))\n"
        }
      }
      return text
    }

    /// Good values for every known key: no problem at all.
    static func goodFile(_ random: inout SeededGenerator, repository: String) -> String {
      """
      [\(pick(["journal", "Journal"], &random))]
      \tdir = \(pick(["~/journal", "notes", "/tmp/journal"], &random))
      \tauthor = me@example.com
      \ttimezone = \(pick(["UTC", "Europe/Paris"], &random))
      \tdayStart = \(pick(["00:00", "04:30"], &random))
      \tmerges = \(pick(["true", "no", "1"], &random))
      [repo "app"]
      \tpath = \(repository)
      \tprivate = \(pick(["true", "off"], &random))
      [narrative]
      \tengine = \(pick(["ollama", "openai", "off"], &random))
      \turl = \(pick(["http://127.0.0.1:11434", "http://[::1]:8080", "http://localhost:65535/v1"], &random))
      \tmodel = gemma3:4b
      \ttemperature = \(pick(["0", "0.7", "2"], &random))
      \thealthTimeout = \(pick(["100ms", "2", "60s", "1m"], &random))
      \ttimeout = \(pick(["1", "90s", "60m", "3600"], &random))
      \tretryDelay = \(pick(["1", "60", "86400", "1440m"], &random))
      \tallowRemote = false

      """
    }

    static func withinBounds(_ settings: NarrativeSettings) -> Bool {
      NarrativeSettings.temperatureBounds.contains(settings.temperature)
        && NarrativeSettings.healthTimeoutBounds.contains(settings.healthTimeout)
        && NarrativeSettings.timeoutBounds.contains(settings.timeout)
        && NarrativeSettings.retryDelayBounds.contains(settings.retryDelay)
        && settings.url.map(NarrativeSettings.hasValidPort) != false
    }

    /// Plain write(2): Foundation's file writing calls fsync, which would make this test ten times slower.
    static func store(_ text: String, at path: String) throws {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { throw ScratchError("cannot open \(path)") }
      defer { close(descriptor) }
      let bytes = Array(text.utf8)
      let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      guard written == bytes.count else { throw ScratchError("cannot write \(path)") }
    }

    @Test func randomConfigFilesReadOrFailCleanly() async throws {
      try await DedicatedThread.run {
        let scratch = try ScratchDirectory("gitjournal-config-fuzz")
        try scratch.makeFolder("config")
        let environment = Environment(
          variables: ["HOME": scratch.path("home"), "GITJOURNAL_CONFIG": scratch.path("config/config")],
          currentDirectory: scratch.path)
        var random = SeededGenerator(seed: 15)
        let cases = 1500
        var passed = 0
        var withProblems = 0
        for index in 0..<cases {
          let good = index % 5 == 0
          let text = good ? Self.goodFile(&random, repository: scratch.path) : Self.randomFile(&random)
          try Self.store(text, at: environment.configPath)
          var ok = true
          do {
            let (configuration, problems) = try Configuration.read(environment)
            if good && !problems.isEmpty {
              ok = false
              Issue.record("case \(index): a good file has problems: \(problems)\n\(text)")
            }
            if problems.isEmpty {
              ok =
                Self.withinBounds(configuration.narrative)
                && configuration.repositories.allSatisfy { $0.path.hasPrefix("/") }
                && configuration.journalDirectory.hasPrefix("/")
              #expect(ok, "case \(index): read without a problem, yet out of bounds\n\(text)")
            } else {
              withProblems += 1
              ok = problems.allSatisfy { !$0.description.isEmpty }
              if index % 10 == 1 { #expect(throws: ConfigError.self) { try Configuration.load(environment) } }
            }
          } catch {
            // Only an unreadable file may stop the reading itself.
            if case .unreadable = error as? ConfigError {} else { ok = false }
            #expect(!good, "case \(index): \(error)")
          }
          if ok { passed += 1 }
        }
        #expect(withProblems > cases / 3, "only \(withProblems) files had problems: the generator is too tame")
        ReliabilityTable.record("hostile: config files (seeded fuzz)", tried: cases, passed: passed, dataLost: 0)
      }
    }
  }
}
