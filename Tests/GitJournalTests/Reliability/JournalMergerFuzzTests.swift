import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Journal

extension Reliability {
  /// The merger against random whole files, beyond the random text around a clean block that
  /// `JournalMergerTests.randomUserTextSurvivesAnyMerge` covers: files with or without front matter (closed or
  /// not, with gitjournal's keys and the user's), with or without a block, with the block edited by hand, with
  /// lines that look like markers, fences or front-matter keys, with LF or CRLF endings. Whatever the file, every
  /// line the user wrote comes out unchanged and in order; only gitjournal's own front-matter values and an
  /// unedited block are replaced; the result holds the new block and merging again changes nothing.
  @Suite struct JournalMergerFuzzTests {
    static let userLines = [
      "hello", "", "", " ", "\t", "# My title", "## Sub", "- item", "* star", "> quote", "---", "...", "--- ",
      "date: 1999-01-01", "commits: 7", "tags: [work]", "mood: \"ok: fine\"", "  nested: value", "title:", ":",
      "<!-- a comment of mine -->", "<!-- gitjournal:begin my own copy -->",
      "<!-- gitjournal:end checksum=deadbeef0000 -->",
      "  <!-- gitjournal:end -->", "text <!-- gitjournal:begin --> inline", "checksum=", "`code`", "```", "é 🙂 日本",
      "\u{2028}", "\u{0}", "&amp; <b>", "line with trailing spaces   ", "carriage\r", "\r",
      "\u{00A0}<!-- gitjournal:end checksum=deadbeef0000 -->", "\u{3000}<!-- gitjournal:begin -->",
      "<!-- gitjournal:begin -->\r", "e\u{301}",
    ]
    static let subjects = [
      "Fix", "Add `x`", "<!-- gitjournal:end -->", "a\nb", "Ünïcödé", "---", "Refactor & test", "",
    ]

    static func pick<T>(_ values: [T], _ random: inout SeededGenerator) -> T {
      values[Int.random(in: 0..<values.count, using: &random)]
    }

    static func page(_ random: inout SeededGenerator) -> JournalPage {
      JournalFixtures.page(
        subjects: (0..<Int.random(in: 0...4, using: &random)).map { _ in pick(subjects, &random) },
        project: pick(["app", "engine", "web"], &random))
    }

    /// A random existing file, and the page merged into it.
    static func randomFile(_ random: inout SeededGenerator) -> (text: String, page: JournalPage) {
      var lines: [String] = []
      if Int.random(in: 0..<3, using: &random) > 0 {
        lines.append("---")
        lines += (0..<Int.random(in: 0...5, using: &random)).map { _ in
          pick(
            ["date: 1999-01-01", "commits: 99", "tags: [a]", "  - item", "title: x: y", "projects:", "# c"], &random)
        }
        // Sometimes the front matter is never closed: then it is not front matter.
        if Int.random(in: 0..<5, using: &random) > 0 { lines.append(pick(["---", "...", "--- "], &random)) }
      }
      var body = (0..<Int.random(in: 0...12, using: &random)).map { _ in pick(userLines, &random) }
      if Int.random(in: 0..<3, using: &random) > 0 {
        let old = page(&random)
        var block = JournalMerger.lines(of: JournalMerger.renderBlock(old.blockBody))
        // A hand edit inside the block, now and then.
        if Int.random(in: 0..<3, using: &random) == 0 {
          block.insert("My edit inside the block \(Int.random(in: 0..<1000, using: &random))", at: 1)
        }
        body.insert(contentsOf: block, at: Int.random(in: 0...body.count, using: &random))
      }
      lines += body
      let separator = Int.random(in: 0..<4, using: &random) == 0 ? "\r\n" : "\n"
      var text = lines.joined(separator: separator)
      if Int.random(in: 0..<2, using: &random) == 0 { text += separator }
      return (text, page(&random))
    }

    /// The lines of `existing` that belong to the user: all of them except gitjournal's front-matter keys, the
    /// front matter's fences, and the managed block's markers and, when nobody edited it, its body.
    static func userOwnedLines(of existing: String, page: JournalPage) -> [String] {
      let (frontMatter, body) = JournalMerger.splitFrontMatter(existing)
      var kept = (frontMatter ?? []).filter { line in
        guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" "), !line.hasPrefix("\t") else { return true }
        return !JournalPage.frontMatterKeys.contains(String(line[..<colon]))
      }
      let lines = JournalMerger.lines(of: body)
      guard let block = JournalMerger.findBlock(in: lines) else { return kept + lines }
      let inside = lines[(block.begin + 1)..<block.end].map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
      let oldBody = inside.joined(separator: "\n")
      let endLine = lines[block.end]
      let written = endLine.range(of: "checksum=").map { endLine[$0.upperBound...].prefix { $0.isHexDigit } }
      let edited = written != ContentHash.hex(of: oldBody).prefix(12) && oldBody != page.blockBody
      kept += lines[..<block.begin]
      if edited { kept += lines[(block.begin + 1)..<block.end] }
      kept += lines[(block.end + 1)...]
      return kept
    }

    /// Whether `needles` occur in `haystack` in order (not necessarily next to each other).
    static func isSubsequence(_ needles: [String], of haystack: [String]) -> Bool {
      var index = haystack.startIndex
      for needle in needles {
        guard let found = haystack[index...].firstIndex(of: needle) else { return false }
        index = found + 1
      }
      return true
    }

    /// The merge as it was made before it worked on the file's bytes: line by line, each line a string, the
    /// block's lines replaced in the array and the lines joined again. It finds the markers with the same
    /// `findBlock(in:)` as the merge, so what it checks is how the text is cut and put together around them.
    static func lineByLineMerge(page: JournalPage, into existing: String, pageName: String) -> String {
      let block = JournalMerger.renderBlock(page.blockBody)
      let fresh =
        JournalMerger.renderFrontMatter(page.frontMatter, userLines: []) + "\n" + page.title + "\n\n" + block + "\n"
      guard !existing.isEmpty, existing != fresh else { return fresh }
      let (frontMatterLines, bodyText) = JournalMerger.splitFrontMatter(existing)
      let frontMatter = JournalMerger.renderFrontMatter(page.frontMatter, userLines: frontMatterLines ?? [])
      var lines = JournalMerger.lines(of: bodyText)
      if let found = JournalMerger.findBlock(in: lines) {
        let oldBody = lines[(found.begin + 1)..<found.end].map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
          .joined(separator: "\n")
        var replacement = JournalMerger.lines(of: block)
        let endLine = lines[found.end]
        let written = endLine.range(of: "checksum=").map { endLine[$0.upperBound...].prefix { $0.isHexDigit } }
        if written != ContentHash.hex(of: oldBody).prefix(12) && oldBody != page.blockBody {
          replacement += [
            "",
            "<!-- gitjournal: the text below was edited inside the generated block and kept here on \(pageName) -->",
          ]
          replacement += lines[(found.begin + 1)..<found.end]
        }
        lines.replaceSubrange(found.begin...found.end, with: replacement)
        return frontMatter + lines.joined(separator: "\n")
      }
      var body = bodyText
      if !body.isEmpty && body.unicodeScalars.last != "\n" { body += "\n" }
      if !body.isEmpty { body += "\n" }
      return frontMatter + body + block + "\n"
    }

    /// The merge on bytes gives, for every random file, exactly the bytes the line-by-line merge gave (`==` on
    /// strings would take two spellings of one character for the same).
    @Test func theMergeOnBytesEqualsTheMergeLineByLine() {
      var random = SeededGenerator(seed: 20_261_202)
      for round in 0..<2_000 {
        let (existing, page) = Self.randomFile(&random)
        let merged = JournalMerger.merge(page: page, into: existing, pageName: "2026-12-02")
        let expected = Self.lineByLineMerge(page: page, into: existing, pageName: "2026-12-02")
        let same = Array(merged.utf8) == Array(expected.utf8)
        #expect(same, "round \(round): \(existing.debugDescription)")
        if !same { break }
      }
    }

    @Test func randomFilesKeepEveryLineTheUserWrote() {
      var random = SeededGenerator(seed: 20_261_130)
      let rounds = 1_000
      var passed = 0
      for round in 0..<rounds {
        let (existing, page) = Self.randomFile(&random)
        let merged = JournalMerger.merge(page: page, into: existing, day: JournalFixtures.day)
        let mergedLines = JournalMerger.lines(of: merged)
        let kept = Self.userOwnedLines(of: existing, page: page)
        let keptInOrder = Self.isSubsequence(kept, of: mergedLines)
        #expect(keptInOrder, "round \(round): a line of the user's was lost from \(existing.debugDescription)")
        let (_, mergedBody) = JournalMerger.splitFrontMatter(merged)
        let bodyLines = JournalMerger.lines(of: mergedBody)
        let block = JournalMerger.findBlock(in: bodyLines)
        let newBody = block.map { bodyLines[($0.begin + 1)..<$0.end].joined(separator: "\n") }
        #expect(
          newBody == page.blockBody, "round \(round): the new block is not the page in \(merged.debugDescription)")
        let again = JournalMerger.merge(page: page, into: merged, day: JournalFixtures.day)
        #expect(again == merged, "round \(round): merging again changed \(existing.debugDescription)")
        if keptInOrder && newBody == page.blockBody && again == merged { passed += 1 }
      }
      ReliabilityTable.record("merger: random whole files", tried: rounds, passed: passed, dataLost: rounds - passed)
    }
  }
}
