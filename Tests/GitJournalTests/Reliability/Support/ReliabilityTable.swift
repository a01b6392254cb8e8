import Foundation

/// The figures of the reliability suite, in the shape of `scripts/soak.sh`'s final table: per case, how many
/// times the fault was tried, how many passed every check, and how many lost data (a journal line, a user's
/// note, or a file left partial). Each test records its rows as it ends; they are printed at once, and also
/// appended as tab-separated lines to `$GITJOURNAL_RELIABILITY_TABLE` when that is set, so a run can collect
/// the whole table.
enum ReliabilityTable {
  static let header = "case\ttried\tpassed\tdata lost"

  static func record(_ name: String, tried: Int, passed: Int, dataLost: Int) {
    let row = "\(name)\t\(tried)\t\(passed)\t\(dataLost)"
    print("reliability | \(name) | tried \(tried) | passed \(passed) | data lost \(dataLost)")
    guard let path = ProcessInfo.processInfo.environment["GITJOURNAL_RELIABILITY_TABLE"], !path.isEmpty else {
      return
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    let bytes = Array((row + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
  }
}
