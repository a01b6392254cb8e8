import Facts
import GitReader
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// After a failed health check or generation, no request goes to the model server for `retryDelay`
/// seconds. Every hook is its own process, so the pause is kept in a file under the state folder and
/// honoured by every gitjournal process: a `StateFile` of one record, `<until> <server> <reason> [<pid>]`
/// (seconds since 1970; the process id of a request's mark, see below). A file that does not read so is no
/// pause.
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
    var found: (server: String, state: State)?
    StateFile.read(path) { record in
      guard record.count == 3 || record.count == 4, let seconds = Double(record.text(0)), seconds.isFinite else {
        return false
      }
      let requester = record.count == 4 ? pid_t(record.text(3)) : nil
      guard record.count == 3 || requester != nil else { return false }
      // The reason is printed by `doctor` and `rebuild`: made one safe line whoever wrote the file.
      let reason = OneLineText.make(record.text(2))
      found = (record.text(1), State(until: Date(timeIntervalSince1970: seconds), reason: reason, requester: requester))
      return false
    }
    guard let found, anyServer || found.server == server else { return nil }
    return found
  }

  private func write(until: Date, reason: String, requester: pid_t?) {
    // The reason is shown on one line by `doctor`, `rebuild` and the log.
    var record = [String(until.timeIntervalSince1970), server, OneLineText.make(reason)]
    if let requester { record.append(String(requester)) }
    try? StateFile.write([record], to: path)
  }

  private static func bounded(_ seconds: Double) -> Double {
    seconds.isNaN ? 0 : min(max(seconds, 0), maximumSeconds)
  }

  /// Whether a process with this id exists (EPERM: it does, under another user).
  private static func isAlive(_ pid: pid_t) -> Bool {
    pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
  }
}
