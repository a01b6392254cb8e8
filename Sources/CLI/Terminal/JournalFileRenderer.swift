import Facts
import GitReader
import Journal
import Narrative
import Support

/// Shows a journal file in a terminal: headings bold, times and ids dim, line counts in colour, gitjournal's
/// marker comments hidden, and what gitjournal escaped for Markdown in its block (subjects, names, the sentence) as
/// it was typed (`MarkdownText.typed`). Plain markdown is left as it is when the output is not a terminal;
/// `NO_COLOR` only takes the colours away.
enum JournalFileRenderer {
  /// `isGenerated`: the whole text is gitjournal's (`show --week`), not only a file's block.
  static func render(_ text: String, style: TerminalStyle, isGenerated: Bool = false) -> String {
    guard style.isTerminal else { return text }
    var output: [String] = []
    var inFrontMatter = false
    var inBlock = false
    for (index, whole) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
      if whole.hasPrefix(JournalMerger.beginPrefix) { inBlock = true }
      if whole.hasPrefix(JournalMerger.endPrefix) { inBlock = false }
      let isEscaped = isGenerated || inBlock
      // A commit line's subject and branch are undone in `commitLine`, where the line's own parts are told apart.
      let line = isEscaped && !whole.hasPrefix("- ") ? MarkdownText.typed(whole) : whole
      if line == "---" && (index == 0 || inFrontMatter) {
        inFrontMatter = index == 0
        output.append(style.dim(line))
      } else if inFrontMatter {
        output.append(style.dim(line))
      } else if line.hasPrefix(JournalMerger.beginPrefix) || line.hasPrefix(JournalMerger.endPrefix) {
        continue
      } else if line.hasPrefix("### ") {
        output.append(style.cyan(String(line.dropFirst(4))))
      } else if line.hasPrefix("## ") {
        output.append(style.bold(style.cyan(String(line.dropFirst(3)))))
      } else if line.hasPrefix("# ") {
        output.append(style.bold(String(line.dropFirst(2))))
      } else if line.hasPrefix("- "), let styled = commitLine(line, style: style, isEscaped: isEscaped) {
        output.append(styled)
      } else {
        output.append(isEscaped && line.hasPrefix("- ") ? MarkdownText.typed(line) : line)
      }
    }
    return output.joined(separator: "\n")
  }

  /// `- 09:12 Subject (`a1b2c3d`, +120 -8)` or `(`a1b2c3d` on feature/x, +120 -8)`: time and id dim, the
  /// branch cyan, counts green and red.
  private static func commitLine(_ line: String, style: TerminalStyle, isEscaped: Bool) -> String? {
    let body = line.dropFirst(2)
    guard body.count > 6, body.dropFirst(5).first == " ", let open = body.occurrences(of: " (`").last,
      body.hasSuffix(")")
    else { return nil }
    let time = body.prefix(5)
    let subject = body[body.index(body.startIndex, offsetBy: 6)..<open.lowerBound]
    let details = body[open.upperBound..<body.index(before: body.endIndex)]
    // The id has no backtick and the counts no comma; the branch, escaped, may have either.
    guard let idEnd = details.firstIndex(of: "`"), let countsStart = details.occurrences(of: ", ").last,
      countsStart.lowerBound > idEnd
    else { return nil }
    let id = details[..<idEnd]
    let between = details[details.index(after: idEnd)..<countsStart.lowerBound]
    guard between.isEmpty || between.hasPrefix(" on ") else { return nil }
    let typed = { (text: Substring) in isEscaped ? MarkdownText.typed(text) : String(text) }
    let branch = between.isEmpty ? "" : style.cyan(typed(between.dropFirst(4))) + " "
    let counts = details[countsStart.upperBound...].split(separator: " ").map { part -> String in
      if part.hasPrefix("+") { return style.green(String(part)) }
      if part.hasPrefix("-") { return style.red(String(part)) }
      return String(part)
    }
    return
      "  \(style.dim(String(time)))  \(typed(subject))  \(style.dim(String(id))) \(branch)\(counts.joined(separator: " "))"
  }
}
