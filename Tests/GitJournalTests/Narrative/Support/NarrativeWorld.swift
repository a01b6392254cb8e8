import Foundation
import Testing

@testable import Narrative
@testable import Support

/// A user's machine for the end-to-end narrative tests: a `HookWorld` (HOME, git identity, the built binary)
/// with one repository whose hooks are installed by `gitjournal install`, a config that points the narrative
/// at a `ModelServer` with short limits, and the detached narrators the hooks start, which never outlive the
/// test (`finish()` waits for them; the deinit kills any left by pid). The week and month pages are off unless
/// `periodPages`: the day's tests count the requests for the day's sentence alone (PeriodSentenceTests has the
/// weeks' and months').
final class NarrativeWorld: Sendable {
  let hooks: HookWorld
  let server: ModelServer
  let repository: String

  var home: String { hooks.home }
  var stateDirectory: String { home + "/.local/state/gitjournal" }
  var backoffPath: String { stateDirectory + "/narrative-backoff" }

  init(
    _ behaviour: ModelBehaviour, engine: NarrativeSettings.Engine = .ollama, healthTimeout: String = "1",
    timeout: String = "2", retryDelay: String = "60", periodPages: Bool = false
  ) throws {
    hooks = try HookWorld()
    server = try ModelServer(behaviour)
    repository = try hooks.makeRepository("code/app")
    let installed = try hooks.gitjournal("install", in: repository)
    guard installed.status == 0 else { throw ScratchError("install failed: \(installed.hookTestSummary)") }
    try configure("narrative.engine", engine.rawValue)
    try configure("narrative.url", server.baseURL)
    try configure("narrative.healthTimeout", healthTimeout)
    try configure("narrative.timeout", timeout)
    try configure("narrative.retryDelay", retryDelay)
    if !periodPages {
      try configure("journal.weekly", "false")
      try configure("journal.monthly", "false")
    }
  }

  deinit {
    NarratorProcesses.killAll(home: hooks.home)
  }

  func configure(_ key: String, _ value: String) throws { try hooks.configure(key, value) }

  /// `narrative.log`, where the narrators say why a sentence is missing.
  var narrativeLog: String {
    FileManager.default.contents(atPath: stateDirectory + "/narrative.log").map { String(decoding: $0, as: UTF8.self) }
      ?? ""
  }

  /// The end of the pause written after a failure, if any.
  var backoffUntil: Date? {
    var seconds: Double?
    StateFile.read(backoffPath) { record in
      seconds = Double(record.text(0))
      return false
    }
    return seconds.map { Date(timeIntervalSince1970: $0) }
  }

  /// Commits a new file with `git commit`, timed and read through a pipe as a GUI client would.
  func timedCommit(
    _ subject: String, in repository: String? = nil, authorDate: Date? = nil, environment extra: [String: String] = [:]
  ) throws -> PipedRun {
    let folder = repository ?? self.repository
    try Data("\(subject)\n".utf8).write(to: URL(fileURLWithPath: folder + "/file-\(UUID().uuidString).txt"))
    try hooks.git(["add", "-A"], in: folder)
    var environment = hooks.environment.merging(extra) { _, new in new }
    if let authorDate { environment["GIT_AUTHOR_DATE"] = HookWorld.gitDate(authorDate) }
    let run = try PipedRun.run(
      Subprocess.gitExecutable, ["commit", "-q", "-m", subject], environment: environment, in: folder)
    guard run.status == 0 else { throw ScratchError("git commit failed (\(run.status)): \(run.output)") }
    return run
  }

  /// The day's journal once `condition` holds for it, polling for up to `timeout` seconds; nil if it never does.
  func journal(_ day: String, timeout: Double = 10, when condition: (String) -> Bool) async -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let text = hooks.journal(day), condition(text) { return text }
      try? await Task.sleep(nanoseconds: 50_000_000)
    }
    return hooks.journal(day).flatMap { condition($0) ? $0 : nil }
  }

  /// Waits for every narrator the hooks started; false (and a recorded issue) if some still run after
  /// `timeout` seconds.
  @discardableResult
  func finish(timeout: Double = 10, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
    let done = await NarratorProcesses.waitUntilNoneRun(home: home, timeout: timeout)
    if !done {
      Issue.record("narrators still running after \(timeout) s", sourceLocation: sourceLocation)
      NarratorProcesses.killAll(home: home)
    }
    return done
  }

  /// Takes `narrator.lock` as a running narrator would, so that the narrators the hooks start wait, visibly,
  /// until `releaseNarratorLock` is called with the returned descriptor.
  func holdNarratorLock() throws -> Int32 {
    try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
    let descriptor = open(stateDirectory + "/narrator.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      throw ScratchError("cannot take narrator.lock")
    }
    return descriptor
  }

  func releaseNarratorLock(_ descriptor: Int32) {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }

  /// The managed block's lines of a journal file.
  static func blockLines(_ journal: String) -> [String] {
    JournalFixtures.parts(of: journal).map { $0.body.components(separatedBy: "\n") } ?? []
  }
}
