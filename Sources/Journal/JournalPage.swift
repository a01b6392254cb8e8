import Facts
import GitReader
import Support

/// What gitjournal writes for one day: the front-matter values it owns, the title of a new file and the body
/// of the managed block.
public struct JournalPage: Equatable, Sendable {
  /// Front-matter keys owned by gitjournal, in the order they are written. Other keys are the user's.
  public static let frontMatterKeys = ["date", "commits", "projects", "insertions", "deletions"]

  public let frontMatter: [(key: String, value: String)]
  public let title: String
  /// The managed block's lines, without the markers.
  public let blockBody: String

  public static func == (lhs: JournalPage, rhs: JournalPage) -> Bool {
    lhs.frontMatter.map(\.key) == rhs.frontMatter.map(\.key)
      && lhs.frontMatter.map(\.value) == rhs.frontMatter.map(\.value)
      && lhs.title == rhs.title && lhs.blockBody == rhs.blockBody
  }

  init(frontMatter: [(key: String, value: String)], title: String, blockBody: String) {
    self.frontMatter = frontMatter
    self.title = title
    self.blockBody = blockBody
  }

  /// Renders a day. `narrative` is the model's sentence, already guarded; it sits above the factual line.
  /// `links`, when given, end the block.
  public init(facts: DayFacts, narrative: String?, calendar: JournalCalendar, links: PageLinks? = nil) {
    let stats = facts.stats
    frontMatter = [
      ("date", facts.day.description),
      ("commits", String(facts.commitCount)),
      ("projects", String(facts.projectCount)),
      ("insertions", String(stats.insertions)),
      ("deletions", String(stats.deletions)),
    ]
    title = "# " + calendar.title(of: facts.day)

    var lines: [String] = []
    if let narrative, !narrative.isEmpty {
      lines += [MarkdownText.inline(narrative), ""]
    }
    lines.append(facts.summaryLine)
    for project in facts.projects {
      // The kinds of work read under the heading, which stays the project's name alone (pages are parsed by it).
      lines += ["", "## " + MarkdownText.inline(project.name), "", project.kinds.line, ""]
      for commit in project.commits {
        let shortID = String(commit.id.prefix(7))
        let change = commit.isMerge ? "merge" : "+\(commit.stats.insertions) -\(commit.stats.deletions)"
        // The branch is the user's text as the subject is, escaped and bounded the same way.
        let branch = commit.branch.map {
          " on " + MarkdownText.inline(MarkdownText.shortened($0, to: MarkdownText.longestBranch))
        }
        lines.append(
          "- \(calendar.clockTime(commit.authoredAt)) \(MarkdownText.inline(MarkdownText.shortened(commit.subject))) "
            + "(`\(shortID)`\(branch ?? ""), \(change))")
      }
    }
    blockBody = Self.body(lines: lines, links: links)
  }

  /// `body` ending with the links line, after an empty line; a links line it already ends with is replaced.
  package static func body(_ body: String, links: PageLinks?) -> String {
    Self.body(lines: JournalMerger.lines(of: body), links: links)
  }

  /// `body(_:links:)` for a body given as its lines (none holding a line feed): a page made here is joined once,
  /// not joined, split and joined again (a tenth of what rendering a day cost).
  static func body(lines: [String], links: PageLinks?) -> String {
    var lines = lines
    if let last = lines.last, PageLinks.isLinksLine(last) {
      lines.removeLast()
      if lines.last == "" { lines.removeLast() }
    }
    if let line = links?.line { lines += ["", line] }
    return lines.joined(separator: "\n")
  }

  /// The links line a block body ends with, or nil.
  static func links(inBody body: some StringProtocol) -> PageLinks? {
    guard let last = JournalMerger.lines(of: body).last else { return nil }
    return PageLinks(line: last.hasSuffix("\r") ? last.dropLast() : Substring(last))
  }
}
