import CSystem

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A log under `${XDG_STATE_HOME:-~/.local/state}/gitjournal/`: `hook.log` for the hooks, which must stay
/// quiet (the terminal gets one line pointing here), `narrative.log` for the model's sentences.
package struct LogFile: Sendable {
  package let path: String
  /// Past this size the log is moved to `<name>.1`, so it never grows without bound.
  static let maximumBytes = 512 * 1024
  /// Characters kept of one line.
  static let longestLine = 4_000

  package static func hook(stateDirectory: String) -> LogFile { LogFile(path: stateDirectory + "/hook.log") }
  package static func narrative(stateDirectory: String) -> LogFile { LogFile(path: stateDirectory + "/narrative.log") }

  /// Appends timestamped lines; a log that cannot be written is not worth failing a hook for.
  package func append(_ lines: [String], now: Date) {
    guard !lines.isEmpty, (try? makeFolders(PathText.folder(of: path))) != nil else { return }
    var info = stat()
    if stat(path, &info) == 0 && Int(info.st_size) > Self.maximumBytes { rename(path, path + ".1") }
    let stamp = UTCTime.format(Int64(now.timeIntervalSince1970.rounded(.down)))
    // Lines carry text from outside (a model server's answer, a path): one line each, no escape sequences for
    // whoever reads the log on a terminal.
    let text = lines.map { "\(stamp) \(OneLineText.make($0, limit: Self.longestLine))\n" }.joined()
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    // One write per call: O_APPEND keeps lines from concurrent hooks whole.
    _ = text.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count - 1) }
  }

  /// Ends the process after `seconds`, whatever it is doing, with `line` in this log (stamped `now`: the time the
  /// deadline was armed, which the line says) and `terminalLine` on standard error, and exit status 0. For the
  /// hook, which a commit waits for: a damaged repository can keep libgit2 busy without end, and the kernel releases
  /// the journal lock of a process that ends; every file is replaced whole or not at all. The lines are gitjournal's
  /// own, one line each; the log's folder is there by then (it holds the journal lock), and when it is not, only the
  /// terminal gets its line.
  package func armDeadline(seconds: Int, line: String, terminalLine: String, now: Date) {
    let stamp = UTCTime.format(Int64(now.timeIntervalSince1970.rounded(.down)))
    _ = gitjournal_arm_deadline(UInt32(clamping: max(1, seconds)), path, stamp + " " + line + "\n", terminalLine + "\n")
  }

}
