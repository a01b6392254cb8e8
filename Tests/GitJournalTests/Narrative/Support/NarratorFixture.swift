import Foundation

@testable import Facts
@testable import Narrative
@testable import Support

/// A narrator's surroundings for the in-process tests: XDG state and cache folders in a scratch folder,
/// settings pointing at a test server, and `narrative.log` written the way the commands write it. The default
/// limits are generous, so that a server that answers is never given up on under a loaded test run; a test of a
/// deadline passes its own short one.
struct NarratorFixture {
  let scratch: ScratchDirectory
  var settings: NarrativeSettings

  static let calendar = JournalFixtures.calendar

  init(
    url: String, engine: NarrativeSettings.Engine = .ollama, healthTimeout: Double = 5, timeout: Double = 10,
    retryDelay: Double = 60
  ) throws {
    scratch = try ScratchDirectory("gitjournal-narrator")
    settings = NarrativeSettings()
    settings.engine = engine
    settings.url = url
    settings.healthTimeout = healthTimeout
    settings.timeout = timeout
    settings.retryDelay = retryDelay
  }

  var variables: [String: String] {
    [
      "HOME": scratch.path("home"), "XDG_STATE_HOME": scratch.path("state"), "XDG_CACHE_HOME": scratch.path("cache"),
      "XDG_CONFIG_HOME": scratch.path("config"),
    ]
  }

  /// The environment of one process, whose clock says `now` (the real clock when nil).
  func environment(now: Date? = nil) -> Environment {
    let fixed = now
    return Environment(variables: variables, currentDirectory: scratch.path) { fixed ?? Date() }
  }

  var stateDirectory: String { environment().stateDirectory }
  var logPath: String { stateDirectory + "/narrative.log" }
  var backoffPath: String { stateDirectory + "/narrative-backoff" }
  var sentenceFiles: [String] { scratch.allFiles().filter { $0.hasPrefix("cache/gitjournal/sentences/") } }
  var rejectionFiles: [String] { scratch.allFiles().filter { $0.hasPrefix("cache/gitjournal/rejections/") } }

  /// The end of the pause written after a failure, if any.
  var backoffUntil: Date? {
    var seconds: Double?
    StateFile.read(backoffPath) { record in
      seconds = Double(record.text(0))
      return false
    }
    return seconds.map { Date(timeIntervalSince1970: $0) }
  }

  /// What the narrators wrote to `narrative.log`.
  var log: String { FileManager.default.contents(atPath: logPath).map { String(decoding: $0, as: UTF8.self) } ?? "" }

  /// A narrator as a new process would make it, logging to `narrative.log` as `narrate` and `rebuild` do.
  func narrator(now: Date? = nil, settings override: NarrativeSettings? = nil) throws -> Narrator {
    let environment = environment(now: now)
    let log = LogFile.narrative(stateDirectory: environment.stateDirectory)
    let made = Narrator.make(settings: override ?? settings, environment: environment) { line in
      log.append([line], now: Date())
    }
    guard let made else { throw ScratchError("no narrator for \(settings); log: \(self.log)") }
    return made
  }

  /// One project's day of commits with these subjects (a commit a minute from 09:00 UTC).
  static func facts(day: Int = 10, subjects: [String] = ["Teach the parser about tabs"], project: String = "app")
    -> DayFacts
  {
    JournalFixtures.facts(subjects: subjects, project: project, day: Day(year: 2026, month: 3, day: day))
  }
}
