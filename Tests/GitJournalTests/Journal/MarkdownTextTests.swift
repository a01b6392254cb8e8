import Testing

@testable import Journal
@testable import Support

/// Untrusted text in Markdown (issue 43, and issue 41's item 5): inert in the journal file, as typed on a terminal,
/// and escaped only where it would be markup in Markdown that is pasted elsewhere.
@Suite struct MarkdownTextTests {
  static let hostile = [
    "Fix a < b && c > d in `parser` -> faster", "![img](http://x.example/i.png)", "[l](javascript:x)", "[[x]]",
    "~~~ fence", "a \\[ escaped \\] \\` one", "&amp; &lt; already", "tab\there", "plain words", "HEAD~1 and HEAD~2",
    "snake_case *star* _under_", "# heading", "> quote", "- item", "1. item", "<b>bold</b> <!-- c --> <http://x>",
  ]

  /// Nothing in the file makes a link, an image, a wiki link, HTML, a code span or a fence.
  @Test(arguments: hostile) func inlineTextIsInert(_ text: String) {
    let inline = MarkdownText.inline(text)
    // An escaped bracket is a bracket: what is left once they are taken out must make nothing.
    let unescaped = inline.replacingEvery("\\\\", with: "").replacingEvery("\\[", with: "").replacingEvery(
      "\\]", with: "")
    for live in ["](", "![", "[[", "<b", "<!--", "<http"] { #expect(!unescaped.contains(live), "\(inline)") }
    #expect(!inline.hasPrefix("~~~"))
    #expect(inline.filter { $0 == "`" }.count == inline.occurrences(of: "\\`").count, "\(inline)")
  }

  /// A terminal gets the text as typed: `typed` undoes exactly what `inline` did (a tab was a space already).
  @Test(arguments: hostile) func typedUndoesInline(_ text: String) {
    #expect(MarkdownText.typed(MarkdownText.inline(text)) == text.replacingEvery("\t", with: " "))
  }

  /// Markdown for pasting: as typed where nothing would render differently, a backslash where it would.
  @Test func pasteableEscapesOnlyMarkup() {
    #expect(
      MarkdownText.pasteable("Fix a < b && c > d in `parser` -> faster")
        == "Fix a < b && c > d in \\`parser\\` -> faster")
    #expect(MarkdownText.pasteable("snake_case stays") == "snake_case stays")
    #expect(MarkdownText.pasteable("_emphasis_ *star*") == "\\_emphasis\\_ \\*star\\*")
    #expect(MarkdownText.pasteable("[l](javascript:x) ![i](y)") == "\\[l\\](javascript:x) !\\[i\\](y)")
    #expect(MarkdownText.pasteable("<b>x</b> &amp; a & b") == "\\<b>x\\</b> \\&amp; a & b")
    #expect(MarkdownText.pasteable("# not a heading") == "\\# not a heading")
    #expect(MarkdownText.pasteable("- not an item, 3.5 -5") == "\\- not an item, 3.5 -5")
    #expect(MarkdownText.pasteable("12. not an item") == "12\\. not an item")
    #expect(MarkdownText.pasteable("esc\u{1B}[31m") == "esc\u{FFFD}\\[31m")
  }
}
