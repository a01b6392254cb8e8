import Journal
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Progress of a long command on stderr, as git shows it: a bar with counts and an estimate of the time left, only
/// when stderr is a terminal; elsewhere (scripts, logs) one summary line at the end instead.
final class ProgressReporter: Sendable {
  private let output: TextOutput
  private let isTerminal: Bool
  /// What is counted, said in the line: "days with commits", "days narrated".
  private let label: String
  private let started = Date()
  private struct Counts {
    var total = 0
    var done = 0
    /// Whether a bar was drawn, whose line `finish` ends.
    var drawn = false
  }
  private let counts = Locked(Counts())

  init(label: String, output: TextOutput) {
    self.output = output
    self.isTerminal = output.isTerminal
    self.label = label
  }

  /// Work shorter than this needs no progress and no summary: it is over before anyone reads it.
  static let shortestReported = 8

  /// The number of steps, once it is known.
  func start(total: Int) {
    counts.withLock { $0.total = max(0, total) }
  }

  func advance(by count: Int = 1) {
    counts.withLock { counts in
      counts.done = min(counts.total, counts.done + count)
      guard isTerminal, counts.total >= Self.shortestReported else { return }
      counts.drawn = true
      let (done, total) = (counts.done, counts.total)
      let fraction = Double(done) / Double(total)
      let width = 30
      let filled = Int(fraction * Double(width))
      let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
      output.write("\r\u{1B}[2K\(label) \(bar) \(done)/\(total)\(estimate(fraction))")
    }
  }

  /// Ends the bar's line on a terminal; elsewhere writes the one summary line: "days with commits: 1096 of 1096
  /// written in 3 s".
  func finish(verb: String) {
    counts.withLock { counts in
      if counts.drawn {
        output.write("\n")
      } else if !isTerminal && counts.total >= Self.shortestReported {
        let seconds = Int(Date().timeIntervalSince(started).rounded())
        output.line("\(label): \(counts.done) of \(counts.total) \(verb) in \(seconds) s")
      }
    }
  }

  private func estimate(_ fraction: Double) -> String {
    let elapsed = Date().timeIntervalSince(started)
    guard fraction > 0.02, fraction < 1, elapsed > 1 else { return "" }
    let remaining = Int(elapsed / fraction - elapsed)
    let seconds = remaining % 60
    return "  ETA \(remaining / 60):\(seconds < 10 ? "0" : "")\(seconds)"
  }
}
