import Facts
import Foundation
import GitReader
import Support

/// After a failed health check or generation, no request goes to the model server for `retryDelay`
/// seconds. Every hook is its own process, so the pause is kept in a file under the state folder and
/// honoured by every gitjournal process.
package struct Backoff: Sendable {
  let path: String
  /// Identifies the server the pause is about: a changed engine or URL starts afresh.
  let server: String

  init(stateDirectory: String, server: String) {
    path = stateDirectory + "/narrative-backoff"
    self.server = server
  }

  package struct State: Equatable {
    package let until: Date
    package let reason: String
  }

  /// The pause in force at `now`, if any.
  package func current(now: Date) -> State? {
    guard let text = try? AtomicFile.read(path) else { return nil }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 3, lines[1] == server, let seconds = Double(lines[0]) else { return nil }
    let until = Date(timeIntervalSince1970: seconds)
    guard until > now else { return nil }
    return State(until: until, reason: lines[2])
  }

  func pause(for seconds: Double, reason: String, now: Date) {
    let until = now.addingTimeInterval(seconds).timeIntervalSince1970
    let text = "\(until)\n\(server)\n\(reason.replacingOccurrences(of: "\n", with: " "))\n"
    try? makeFolders((path as NSString).deletingLastPathComponent)
    try? AtomicFile.write(text, to: path)
  }

  func clear() {
    unlink(path)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
