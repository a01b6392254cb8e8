import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Journal

/// How a day is rendered into a journal file.
@Suite struct JournalPageTests {
  /// The whole file for a known day, as a golden text: any change to the format shows here first.
  @Test func renderedFileIsStable() {
    let facts = DayFacts(
      day: JournalFixtures.day,
      projects: [
        ProjectFacts(
          name: "web", path: "/code/web", isPrivate: false,
          commits: [
            CommitRecord(
              id: ObjectID(hex: "b" + String(repeating: "2", count: 39))!, authorName: "Ada",
              authorEmail: "ada@example.com",
              authoredAt: 1_773_162_000, authorOffsetMinutes: 60, subject: "Merge branch 'x'", isMerge: true,
              stats: .zero),
            CommitRecord(
              id: ObjectID(hex: "a" + String(repeating: "1", count: 39))!, authorName: "Ada",
              authorEmail: "ada@example.com",
              authoredAt: 1_773_133_500, authorOffsetMinutes: 60, subject: "Use <main> & `x`", isMerge: false,
              stats: DiffStats(filesChanged: 2, insertions: 10, deletions: 3)),
          ]),
        ProjectFacts(
          name: "api", path: "/code/api", isPrivate: true,
          commits: [
            CommitRecord(
              id: ObjectID(hex: "c" + String(repeating: "3", count: 39))!, authorName: "Ada",
              authorEmail: "ada@example.com",
              authoredAt: 1_773_140_000, authorOffsetMinutes: 0, subject: "Secret work", isMerge: false,
              stats: DiffStats(filesChanged: 1, insertions: 1, deletions: 0))
          ]),
      ])
    let page = JournalPage(facts: facts, narrative: "A *busy* day\non the web.", calendar: JournalFixtures.calendar)
    let expected = """
      ---
      date: 2026-03-10
      commits: 3
      projects: 2
      insertions: 11
      deletions: 3
      ---

      # Tuesday, 10 March 2026

      <!-- gitjournal:begin (generated from your commits; edits here move below the block) -->
      A *busy* day\u{FFFD}on the web.

      3 commits across 2 projects, +11 -3

      ## api

      1 other

      - 10:53 Secret work (`c333333`, +1 -0)

      ## web

      2 other

      - 09:05 Use &lt;main&gt; &amp; \\`x\\` (`a111111`, +10 -3)
      - 17:00 Merge branch 'x' (`b222222`, merge)
      <!-- gitjournal:end checksum=\(ContentHash.hex(of: page.blockBody).prefix(12)) -->

      """
    #expect(JournalMerger.merge(page: page, into: nil, day: JournalFixtures.day) == expected)
  }

  /// Bidirectional controls in a subject or a project name would make the line read as something else in an
  /// editor or a viewer ("Trojan Source"): each becomes U+FFFD, the rest of the text stays.
  @Test func bidiControlsBecomeReplacementCharacters() {
    let facts = JournalFixtures.facts(
      subjects: ["Fix the \u{202E}fdp.exe\u{202C} loader", "Isolate \u{2067}this\u{2069} and \u{200F}mark"],
      project: "we\u{202D}b")
    let body = JournalPage(facts: facts, narrative: nil, calendar: JournalFixtures.calendar).blockBody
    #expect(!body.unicodeScalars.contains(where: { $0.properties.isBidiControl }), "\(body.debugDescription)")
    #expect(body.contains("## we\u{FFFD}b"))
    #expect(body.contains("Fix the \u{FFFD}fdp.exe\u{FFFD} loader"))
    #expect(body.contains("Isolate \u{FFFD}this\u{FFFD} and \u{FFFD}mark"))
    #expect(MarkdownText.terminalSafe("we\u{202E}b") == "we\u{FFFD}b")
  }

  @Test func anEmptyDaySaysSo() {
    let page = JournalPage(
      facts: DayFacts(day: JournalFixtures.day, projects: []), narrative: nil, calendar: JournalFixtures.calendar)
    #expect(page.blockBody == "No commits")
    #expect(page.frontMatter.map(\.value) == ["2026-03-10", "0", "0", "0", "0"])
  }

  /// A branch name is the user's text: escaped like a subject, and cut when long.
  @Test func aCommitLineNamesItsBranchEscapedAndBounded() {
    func line(branch: String?, isMerge: Bool = false) -> String {
      let commit = CommitRecord(
        id: ObjectID(hex: "a" + String(repeating: "1", count: 39))!, authorName: "Ada", authorEmail: "ada@example.com",
        authoredAt: 1_773_133_500, authorOffsetMinutes: 0, subject: "Fix it", isMerge: isMerge,
        stats: DiffStats(filesChanged: 1, insertions: 4, deletions: 2), branch: branch)
      let facts = DayFacts(
        day: JournalFixtures.day, projects: [ProjectFacts(name: "web", path: "/w", isPrivate: false, commits: [commit])]
      )
      let body = JournalPage(facts: facts, narrative: nil, calendar: JournalFixtures.calendar).blockBody
      return body.split(separator: "\n").first { $0.hasPrefix("- ") }.map(String.init) ?? ""
    }
    #expect(line(branch: nil) == "- 09:05 Fix it (`a111111`, +4 -2)")
    #expect(line(branch: "feature/login") == "- 09:05 Fix it (`a111111` on feature/login, +4 -2)")
    #expect(line(branch: "topic", isMerge: true) == "- 09:05 Fix it (`a111111` on topic, merge)")
    #expect(
      line(branch: "x`<!-- gitjournal:end -->&\u{202E}")
        == "- 09:05 Fix it (`a111111` on x\\`&lt;!-- gitjournal:end --&gt;&amp;\u{FFFD}, +4 -2)")
    let long = String(repeating: "very-long-", count: 20)
    let cut = "- 09:05 Fix it (`a111111` on " + long.prefix(MarkdownText.longestBranch - 1) + "…, +4 -2)"
    #expect(line(branch: long) == cut)
  }
}
