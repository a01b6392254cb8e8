import Foundation

/// Measures elapsed time.
struct Stopwatch {
  private let start = Date()

  var seconds: Double { Date().timeIntervalSince(start) }
}
