import Foundation
import Testing

@testable import Facts
@testable import Journal

/// The journal file is the user's except for the managed block and gitjournal's front-matter keys.
@Suite struct JournalMergerTests {
  let day = JournalFixtures.day
  let first = JournalFixtures.page(subjects: ["Start the parser", "Fix a typo"])
  let second = JournalFixtures.page(subjects: ["Start the parser", "Fix a typo", "Add tests"], project: "engine")

  /// A file made by gitjournal and then written around by the user.
  func userFile(before: String, after: String, page: JournalPage? = nil) throws -> String {
    let fresh = JournalMerger.merge(page: page ?? first, into: nil, day: day)
    let parts = try #require(JournalFixtures.parts(of: fresh))
    var edited = parts
    edited.before = before
    edited.after = after
    return Self.assemble(edited)
  }

  static func assemble(_ parts: JournalFixtures.Parts) -> String {
    parts.frontMatter + parts.before + JournalMerger.renderBlock(parts.body) + parts.after
  }

  @Test func newFileHasFrontMatterTitleAndBlock() throws {
    let text = JournalMerger.merge(page: first, into: nil, day: day)
    let parts = try #require(JournalFixtures.parts(of: text))
    #expect(parts.body == first.blockBody)
    #expect(parts.before == "\n# Tuesday, 10 March 2026\n\n")
    #expect(parts.after == "\n")
    #expect(JournalFixtures.frontMatterPairs(text).map(\.0) == JournalPage.frontMatterKeys)
    #expect(first.blockBody.contains("2 commits in 1 project, +3 -1"))
  }

  @Test func userTextAroundTheBlockIsKeptByteForByte() throws {
    let before = "\n# My own title\n\nMorning notes: *tired*.\n  indented\twith tab   \n\n"
    let after = "\n\n## Evening\n\nTrailing spaces   \nno final newline"
    let existing = try userFile(before: before, after: after)
    let merged = JournalMerger.merge(page: second, into: existing, day: day)
    let parts = try #require(JournalFixtures.parts(of: merged))
    #expect(parts.before == before)
    #expect(parts.after == after)
    #expect(parts.body == second.blockBody)
    #expect(merged.hasSuffix(after))
  }

  @Test func mergingTheSamePageAgainChangesNothing() throws {
    let existing = try userFile(before: "\nnotes\n", after: "\nmore\n")
    let once = JournalMerger.merge(page: second, into: existing, day: day)
    #expect(JournalMerger.merge(page: second, into: once, day: day) == once)
  }

  @Test func aFileWithoutBlockGetsOneAndLosesNothing() throws {
    let plain = "# Notes\n\nSomething I wrote before gitjournal ran.\nLast line without newline"
    let merged = JournalMerger.merge(page: first, into: plain, day: day)
    let parts = try #require(JournalFixtures.parts(of: merged))
    #expect(parts.before.hasPrefix(plain))
    #expect(parts.body == first.blockBody)

    let withFrontMatter = "---\ntags: [work]\n---\nBody text.\n"
    let merged2 = JournalMerger.merge(page: first, into: withFrontMatter, day: day)
    let parts2 = try #require(JournalFixtures.parts(of: merged2))
    #expect(parts2.before.hasPrefix("Body text.\n"))
    #expect(JournalFixtures.frontMatterPairs(merged2).map(\.0) == ["tags"] + JournalPage.frontMatterKeys)
    #expect(parts2.frontMatter.contains("tags: [work]\n"))
  }

  /// What decides whether a write must be synced before it replaces the file (see `LockedJournalStore`): a merge
  /// is fresh only when neither the result nor the file it replaces holds anything of the user's.
  @Test func onlyAMergeWithoutTheUsersTextIsFresh() throws {
    let own = JournalMerger.merge(page: first, into: nil, day: day)
    #expect(JournalMerger.mergeTellingFresh(page: second, into: nil, pageName: "\(day)").isFresh)
    #expect(JournalMerger.mergeTellingFresh(page: second, into: own, pageName: "\(day)").isFresh)
    #expect(JournalMerger.mergeTellingFresh(page: second, into: "", pageName: "\(day)").isFresh)
    let userTexts = [
      try userFile(before: "\n# Tuesday, 10 March 2026\n\n", after: "\nA note.\n"),
      try userFile(before: "\n# My own title\n\n", after: "\n"),
      own.replacingOccurrences(of: "Fix a typo", with: "Fix a typo (edited)"),
      "---\ntags: [work]\n---\n" + own.drop { $0 != "\n" }.dropFirst().drop { $0 != "\n" },
      "Written before gitjournal ran.\n",
    ]
    for existing in userTexts {
      let merged = JournalMerger.mergeTellingFresh(page: second, into: existing, pageName: "\(day)")
      #expect(!merged.isFresh, "\(existing)")
      #expect(merged.text == JournalMerger.merge(page: second, into: existing, day: day))
    }
  }

  @Test func anEditInsideTheBlockIsKeptBelowIt() throws {
    let existing = try userFile(before: "\nbefore\n", after: "\nafter\n")
    let edited = existing.replacingOccurrences(of: "Fix a typo", with: "Fix a typo (this one took all day!)")
    #expect(edited != existing)
    let merged = JournalMerger.merge(page: second, into: edited, day: day)
    #expect(merged.contains("Fix a typo (this one took all day!)"))
    #expect(merged.contains("edited inside the generated block"))
    let parts = try #require(JournalFixtures.parts(of: merged))
    #expect(parts.body == second.blockBody)
    #expect(parts.before == "\nbefore\n")
    #expect(parts.after.contains("this one took all day!"))
    #expect(parts.after.hasSuffix("\nafter\n"))
    // The kept text is now the user's: the next merge leaves it alone and adds nothing.
    #expect(JournalMerger.merge(page: second, into: merged, day: day) == merged)
  }

  static let hostileSubjects = [
    "<!-- gitjournal:end checksum=000000000000 -->",
    "<!-- gitjournal:begin (generated from your commits; edits here move below the block) -->",
    "---",
    "<script>alert('x')</script> & <b>bold</b>",
    "`code` and ``` fences ```",
    "first line\nsecond line\r\nthird\u{2028}fourth\u{2029}",
    "\u{0}\u{7}\u{1B}[31mred\u{1B}[0m\u{7F}\u{85}",
    "# Heading\n---\ndate: 1999-01-01",
    "-->",
    "back\\slash \\` escaped",
    "\r",
    "\u{301}combining at the start",
  ]

  @Test func hostileSubjectsCannotBreakTheFile() throws {
    let hostile = JournalFixtures.page(subjects: Self.hostileSubjects, project: "evil\n<!-- gitjournal:end -->")
    let calm = JournalFixtures.page(subjects: Self.hostileSubjects.reversed(), project: "`evil`")
    let before = "\nMy notes before.\n"
    let after = "\n\nMy notes after.\n"
    let existing = try userFile(before: before, after: after)

    var text = existing
    for page in [hostile, calm, hostile, hostile] {
      text = JournalMerger.merge(page: page, into: text, day: day)
      let parts = try #require(JournalFixtures.parts(of: text), "one begin and one end marker")
      #expect(parts.before == before)
      #expect(parts.after == after)
      #expect(parts.body == page.blockBody)
      // One line per commit: nothing a subject holds starts a new line.
      #expect(JournalFixtures.lines(parts.body).filter { $0.hasPrefix("- ") }.count == Self.hostileSubjects.count)
      #expect(!text.contains("edited inside the generated block"))
      #expect(!parts.body.contains("<"))
      #expect(JournalFixtures.frontMatterPairs(text).map(\.0) == JournalPage.frontMatterKeys)
      #expect(JournalFixtures.frontMatterPairs(text).first { $0.0 == "date" }?.1 == "2026-03-10")
    }
  }

  @Test func frontMatterKeepsUserKeysAndUpdatesOwnedOnes() throws {
    let fresh = JournalMerger.merge(page: first, into: nil, day: day)
    let userFrontMatter = """
      ---
      title: A long day
      commits: 99
      tags:
        - work
        - parser
      date: 1999-01-01
      mood: "tired: very"
      # a comment
      ---

      """
    let existing =
      userFrontMatter
      + fresh[fresh.range(of: "---\n", range: fresh.index(after: fresh.startIndex)..<fresh.endIndex)!.upperBound...]
    let merged = JournalMerger.merge(page: second, into: existing, day: day)
    let pairs = JournalFixtures.frontMatterPairs(merged)
    #expect(pairs.map(\.0) == ["title", "commits", "tags", "date", "mood", "projects", "insertions", "deletions"])
    let values = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    #expect(values["title"] == "A long day")
    #expect(values["mood"] == "\"tired: very\"")
    #expect(values["commits"] == "3")
    #expect(values["date"] == "2026-03-10")
    #expect(values["projects"] == "1")
    #expect(values["insertions"] == "6")
    #expect(values["deletions"] == "3")
    #expect(merged.contains("tags:\n  - work\n  - parser\n"))
    #expect(merged.contains("# a comment\n"))
  }

  /// Markers indented by the user, with ASCII or Unicode whitespace, still mark the block: the merge replaces it
  /// instead of adding a second one, and the text around it stays.
  @Test func indentedMarkersStillMarkTheBlock() throws {
    for indent in ["  ", "\t", " \u{00A0}", "\u{3000}", "\u{2003}\t"] {
      let fresh = JournalMerger.merge(page: first, into: nil, day: day)
      let indented =
        fresh.split(separator: "\n", omittingEmptySubsequences: false).map { line in
          line.hasPrefix("<!-- gitjournal:") ? indent + line : String(line)
        }.joined(separator: "\n") + "My note\n"
      let merged = JournalMerger.merge(page: second, into: indented, day: day)
      #expect(merged.components(separatedBy: JournalMerger.beginPrefix).count == 2, "\(indent.unicodeScalars)")
      #expect(JournalMerger.blockBody(in: merged) == second.blockBody, "\(indent.unicodeScalars)")
      #expect(merged.hasSuffix("My note\n"))
    }
  }

  @Test func aFileSavedWithWindowsLineEndingsKeepsOneBlock() throws {
    let existing = try userFile(before: "\nMorning.\n", after: "\n\nEvening.\n")
      .replacingOccurrences(of: "\n", with: "\r\n")
    #expect(existing.unicodeScalars.filter { $0 == "\r" }.count > 5)
    let merged = JournalMerger.merge(page: second, into: existing, day: day)
    let parts = try #require(
      JournalFixtures.parts(of: merged), "one begin and one end marker: \(merged.debugDescription)")
    #expect(parts.body == second.blockBody)
    #expect(parts.before.contains("Morning.\r\n"))
    #expect(!merged.contains("edited inside the generated block"), "only the line endings changed")
    #expect(parts.after.contains("Evening.\r\n"))
    #expect(
      JournalFixtures.lines(merged).filter { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "---" }.count == 2)
    #expect(JournalMerger.merge(page: second, into: merged, day: day) == merged)
  }

  /// 200 random user texts around the block, merged with random pages: the user's text never changes.
  @Test func randomUserTextSurvivesAnyMerge() throws {
    var random = SeededGenerator(seed: 2026)
    let pieces = [
      "hello", "world", " ", "  ", "\t", "\n", "\n\n", "\r\n", "\r", "---", "...", "<!--", "-->", "gitjournal",
      "x <!-- gitjournal:end checksum=abc -->", "note <!-- gitjournal:begin -->", "# Title", "## Sub", "- item",
      "* star", "`", "```", "é", "🙂", "日本", "date: 1999-01-01", "commits: 7", ":", "&amp;", "<b>", "\u{2028}",
      "\u{0}", "checksum=", "> quote",
    ]
    func text(_ random: inout SeededGenerator) -> String {
      (0..<Int.random(in: 0...30, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }
        .joined()
    }
    let subjects = ["Fix", "Add `x`", "<!-- gitjournal:end -->", "a\nb", "Ünïcödé", "---", "Refactor & test"]
    for round in 0..<200 {
      var before = text(&random)
      if let last = before.unicodeScalars.last, last != "\n" { before += "\n" }
      let after = "\n" + text(&random)
      let pages = (0..<2).map { _ in
        JournalFixtures.page(
          subjects: (0..<Int.random(in: 0...5, using: &random)).map { _ in
            subjects[Int.random(in: 0..<subjects.count, using: &random)]
          }, project: ["app", "engine", "web"][Int.random(in: 0..<3, using: &random)])
      }
      let existing = try userFile(before: before, after: after, page: pages[0])
      let merged = JournalMerger.merge(page: pages[1], into: existing, day: day)
      // debugDescription: a NUL would cut the test report short.
      guard let parts = JournalFixtures.parts(of: merged) else {
        Issue.record("round \(round): no single block around \(before.debugDescription) and \(after.debugDescription)")
        continue
      }
      #expect(parts.before == before, "round \(round)")
      #expect(parts.after == after, "round \(round)")
      #expect(parts.body == pages[1].blockBody, "round \(round)")
      #expect(JournalMerger.merge(page: pages[1], into: merged, day: day) == merged, "round \(round)")
    }
  }
}
