import Foundation

@testable import Facts
@testable import GitReader
@testable import Journal
@testable import Support

/// Journal pages and files built in memory, for the pure tests of rendering and merging.
enum JournalFixtures {
  static let day = Day(year: 2026, month: 3, day: 10)
  static let calendar = JournalCalendar(timeZone: .utc)

  /// A page of one project whose commits have `subjects`, one a minute from 09:00.
  static func page(subjects: [String], project: String = "app", day: Day = day) -> JournalPage {
    JournalPage(facts: facts(subjects: subjects, project: project, day: day), narrative: nil, calendar: calendar)
  }

  static func facts(subjects: [String], project: String = "app", day: Day = day) -> DayFacts {
    let start = calendar.window(of: day).start + 9 * 3600
    let commits = subjects.enumerated().map { index, subject in
      CommitRecord(
        id: .repeating(String(index % 10)), authorName: "Ada", authorEmail: "ada@example.com",
        authoredAt: start + Int64(index) * 60, authorOffsetMinutes: 0, subject: subject, isMerge: false,
        stats: DiffStats(filesChanged: 1, insertions: index + 1, deletions: index % 3))
    }
    return DayFacts(
      day: day, projects: [ProjectFacts(name: project, path: "/code/\(project)", isPrivate: false, commits: commits)])
  }

  /// The lines of `text`, split at every line feed (a CR before it stays in the line).
  static func lines(_ text: String) -> [String] {
    text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
      String(String.UnicodeScalarView($0))
    }
  }

  /// A journal file cut at its managed block. Nil unless there is exactly one begin and one end marker line.
  struct Parts: Equatable {
    /// The front matter, `---` lines included, with its final line feed.
    var frontMatter: String
    /// Everything from the end of the front matter to the begin marker line.
    var before: String
    /// The block's inner lines.
    var body: String
    /// Everything after the end marker line, starting with its line feed.
    var after: String
  }

  static func parts(of text: String) -> Parts? {
    let all = lines(text)
    let trimmed = all.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    let begins = trimmed.indices.filter { trimmed[$0].hasPrefix(JournalMerger.beginPrefix) }
    let ends = trimmed.indices.filter { trimmed[$0].hasPrefix(JournalMerger.endPrefix) }
    guard begins.count == 1, ends.count == 1, let begin = begins.first, let end = ends.first, begin < end,
      all.first == "---", let close = all.dropFirst().firstIndex(of: "---"), close < begin
    else { return nil }
    return Parts(
      frontMatter: all[...close].joined(separator: "\n") + "\n",
      before: all[(close + 1)..<begin].map { $0 + "\n" }.joined(),
      body: all[(begin + 1)..<end].joined(separator: "\n"),
      after: "\n" + all[(end + 1)...].joined(separator: "\n"))
  }

  /// The front matter as key/value pairs, in order.
  static func frontMatterPairs(_ text: String) -> [(String, String)] {
    lines(text).dropFirst().prefix { $0 != "---" }.compactMap { line in
      guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" ") else { return nil }
      return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
  }
}
