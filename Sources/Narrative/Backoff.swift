import Facts
import Foundation
import GitReader
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// After a failed health check or generation, no request goes to the model server for `retryDelay`
/// seconds. Every hook is its own process, so the pause is kept in a file under the state folder and
/// honoured by every gitjournal process.
///
/// Before each request the narrator also writes a pause marked with its process id (`markRequest`) and removes
/// it when the request ends. While that process lives the mark is no pause; if the process dies during the
/// request (a crash, a kill) the mark stays and is one, so a server whose answer crashes the narrator is asked
/// once per `retryDelay`, not on every commit.
package struct Backoff: Sendable {
  let path: String
  /// Identifies the server the pause is about: a changed engine or URL starts afresh.
  let server: String

  /// A pause ending further away than this is no pause gitjournal wrote (the longest `narrative.retryDelay`):
  /// the file is ignored rather than trusted, so a damaged one cannot stop the model for good, nor hand a
  /// huge number to a conversion.
  static let maximumSeconds = NarrativeSettings.retryDelayBounds.upperBound

  init(stateDirectory: String, server: String) {
    path = stateDirectory + "/narrative-backoff"
    self.server = server
  }

  package struct State: Equatable {
    package let until: Date
    package let reason: String
    /// The process whose request this pause stands for, when it was written before a request.
    package var requester: pid_t?
  }

  /// The pause in force at `now`, if any.
  package func current(now: Date) -> State? {
    guard let state = read(), state.until > now,
      state.until.timeIntervalSince(now) <= Self.maximumSeconds + 1
    else { return nil }
    if let requester = state.requester, Self.isAlive(requester) { return nil }
    return state
  }

  func pause(for seconds: Double, reason: String, now: Date) {
    write(until: now.addingTimeInterval(Self.bounded(seconds)), reason: reason, requester: nil)
  }

  /// Written just before a request: a pause of `seconds` that holds only if this process dies before
  /// `endRequest` or a failure's `pause` replaces it.
  func markRequest(for seconds: Double, now: Date) {
    // One file holds one pause: another server's pause (the config was pointed elsewhere meanwhile) is kept.
    if let other = read(anyServer: true), other.server != server, other.state.until > now { return }
    write(
      until: now.addingTimeInterval(Self.bounded(seconds)),
      reason: "gitjournal stopped (pid \(getpid())) while it waited for the model server's answer",
      requester: getpid())
  }

  /// Removes this process's mark, and only that: another process's failure stays in force.
  func endRequest() {
    if read()?.requester == getpid() { unlink(path) }
  }

  private func read() -> State? {
    read(anyServer: false)?.state
  }

  func clear() {
    unlink(path)
  }

  /// The file's pause, if it is about this server (or any, with `anyServer`) and its time is a finite number.
  private func read(anyServer: Bool) -> (server: String, state: State)? {
    guard let text = try? AtomicFile.read(path) else { return nil }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 3, anyServer || lines[1] == server, let seconds = Double(lines[0]), seconds.isFinite
    else { return nil }
    var requester: pid_t?
    if lines.count >= 4, lines[3].hasPrefix("requester ") {
      requester = pid_t(lines[3].dropFirst("requester ".count))
    }
    return (lines[1], State(until: Date(timeIntervalSince1970: seconds), reason: lines[2], requester: requester))
  }

  private func write(until: Date, reason: String, requester: pid_t?) {
    var text = "\(until.timeIntervalSince1970)\n\(server)\n\(reason.replacingOccurrences(of: "\n", with: " "))\n"
    if let requester { text += "requester \(requester)\n" }
    try? makeFolders((path as NSString).deletingLastPathComponent)
    try? AtomicFile.write(text, to: path)
  }

  private static func bounded(_ seconds: Double) -> Double {
    seconds.isNaN ? 0 : min(max(seconds, 0), maximumSeconds)
  }

  /// Whether a process with this id exists (EPERM: it does, under another user).
  private static func isAlive(_ pid: pid_t) -> Bool {
    pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
  }
}
