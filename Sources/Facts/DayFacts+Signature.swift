import GitReader
import Support

extension DayFacts {
  /// A stable hex signature of the facts, made with git's own object hashing. Equal facts give equal
  /// signatures across runs and machines; it keys the sentence cache.
  public func signature(calendar: JournalCalendar) -> String {
    ContentHash.hex(of: canonicalText(calendar: calendar))
  }

  /// One line per fact, in a fixed order. Times are written as local ISO timestamps so that a change of time
  /// zone, which changes what the prompt says, changes the signature too.
  func canonicalText(calendar: JournalCalendar) -> String {
    var lines = ["gitjournal-facts 2", "day \(day)"]
    for project in projects {
      lines.append("project \(project.name.debugDescription) private=\(project.isPrivate)")
      lines.append("kinds \(project.kinds.canonical)")
      for commit in project.commits {
        let stats = commit.stats
        lines.append(
          "commit \(commit.id.hex) \(calendar.isoTimestamp(commit.authoredAt)) files=\(stats.filesChanged) "
            + "+\(stats.insertions) -\(stats.deletions) merge=\(commit.isMerge) \(commit.subject.debugDescription)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
