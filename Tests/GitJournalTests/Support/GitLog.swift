import Foundation

@testable import GitReader

/// One commit as `git log --shortstat -M100%` reports it: the expected values the journal is compared with.
struct LoggedCommit: Equatable {
  let id: String
  /// The author day as `--date=format-local:%Y-%m-%d` prints it in the time zone the log ran with.
  let authorDay: String
  /// The author email after the mailmap (`%aE`).
  let authorEmail: String
  let subject: String
  let stats: DiffStats
}

extension TemporaryRepository {
  /// Runs `git log --shortstat -M100%` with `arguments` (default: every local branch, no merges) in the time
  /// zone `timeZone` and parses each commit. A commit without a shortstat line changed nothing.
  /// `pathspec` goes last, after `--`.
  func log(_ arguments: [String] = ["--branches", "--no-merges"], timeZone: String = "UTC", pathspec: [String] = [])
    throws -> [LoggedCommit]
  {
    let output = try git(
      ["log"] + arguments + [
        "--shortstat", "-M100%", "--date=format-local:%Y-%m-%d", "--format=%x1e%H%x1f%ad%x1f%aE%x1f%s",
      ] + (pathspec.isEmpty ? [] : ["--"] + pathspec), environment: ["TZ": timeZone])
    return output.split(separator: "\u{1e}").map { record in
      let lines = record.split(separator: "\n")
      let fields = lines[0].split(separator: "\u{1f}", omittingEmptySubsequences: false).map(String.init)
      let statLine = lines.dropFirst().first { $0.contains("changed") }.map(String.init) ?? ""
      return LoggedCommit(
        id: fields[0], authorDay: fields[1], authorEmail: fields[2], subject: fields.count > 3 ? fields[3] : "",
        stats: Self.parseShortstat(statLine))
    }
  }

  /// ` 3 files changed, 10 insertions(+), 2 deletions(-)`, any part of which may be missing.
  static func parseShortstat(_ line: String) -> DiffStats {
    var stats = DiffStats()
    for part in line.split(separator: ",") {
      let words = part.split(separator: " ")
      guard words.count >= 2, let number = Int(words[0]) else { continue }
      if words[1].hasPrefix("file") { stats.filesChanged = number }
      if words[1].hasPrefix("insertion") { stats.insertions = number }
      if words[1].hasPrefix("deletion") { stats.deletions = number }
    }
    return stats
  }
}
