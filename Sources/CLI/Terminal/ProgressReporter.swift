import Foundation
import Journal
import Support

/// Progress of a long command on stderr: a bar with counts and an estimate of the time left on a terminal,
/// a plain line every tenth of the way otherwise (so logs stay short).
final class ProgressReporter: @unchecked Sendable {
  private let output: TextOutput
  private let isTerminal: Bool
  private let label: String
  private let total: Int
  private let started = Date()
  private let lock = NSLock()
  private var done = 0
  private var lastPlainStep = -1

  /// A reporter, or nil when the work is too short to need one: fewer than 8 steps on a terminal, fewer
  /// than 100 elsewhere (scripts and logs want quiet).
  init?(label: String, total: Int, output: TextOutput) {
    guard total >= (output.isTerminal ? 8 : 100) else { return nil }
    self.output = output
    self.isTerminal = output.isTerminal
    self.label = label
    self.total = total
  }

  func advance(by count: Int = 1) {
    lock.withLock {
      done = min(total, done + count)
      draw()
    }
  }

  /// Ends the line (on a terminal) so later output starts clean.
  func finish() {
    lock.withLock {
      if isTerminal { output.write("\n") } else if lastPlainStep < 10 { output.line("\(label): \(done)/\(total)") }
    }
  }

  private func draw() {
    let fraction = Double(done) / Double(total)
    if isTerminal {
      let width = 30
      let filled = Int(fraction * Double(width))
      let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
      output.write("\r\u{1B}[2K\(label) \(bar) \(done)/\(total)\(estimate(fraction))")
    } else {
      let step = Int(fraction * 10)
      if step > lastPlainStep {
        lastPlainStep = step
        output.line("\(label): \(done)/\(total)")
      }
    }
  }

  private func estimate(_ fraction: Double) -> String {
    let elapsed = Date().timeIntervalSince(started)
    guard fraction > 0.02, fraction < 1, elapsed > 1 else { return "" }
    let remaining = Int(elapsed / fraction - elapsed)
    return String(format: "  ETA %d:%02d", remaining / 60, remaining % 60)
  }
}
