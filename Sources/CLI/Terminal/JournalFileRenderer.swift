import Facts
import GitReader
import Journal
import Narrative
import Support

/// Shows a journal file in a terminal: headings bold, times and ids dim, line counts in colour, gitjournal's
/// marker comments hidden. Plain markdown is left as it is when the output is not a terminal; `NO_COLOR` only takes
/// the colours away.
enum JournalFileRenderer {
  static func render(_ text: String, style: TerminalStyle) -> String {
    guard style.isTerminal else { return text }
    var output: [String] = []
    var inFrontMatter = false
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
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
      } else if line.hasPrefix("- "), let styled = commitLine(line, style: style) {
        output.append(styled)
      } else {
        output.append(line)
      }
    }
    return output.joined(separator: "\n")
  }

  /// `- 09:12 Subject (`a1b2c3d`, +120 -8)`: time and id dim, counts green and red.
  private static func commitLine(_ line: String, style: TerminalStyle) -> String? {
    let body = line.dropFirst(2)
    guard body.count > 6, body.dropFirst(5).first == " ", let open = body.range(of: " (`", options: .backwards),
      body.hasSuffix(")")
    else { return nil }
    let time = body.prefix(5)
    let subject = body[body.index(body.startIndex, offsetBy: 6)..<open.lowerBound]
    let details = body[open.upperBound..<body.index(before: body.endIndex)]
    let parts = details.components(separatedBy: "`, ")
    guard parts.count == 2 else { return nil }
    let counts = parts[1].split(separator: " ").map { part -> String in
      if part.hasPrefix("+") { return style.green(String(part)) }
      if part.hasPrefix("-") { return style.red(String(part)) }
      return String(part)
    }
    return "  \(style.dim(String(time)))  \(subject)  \(style.dim(parts[0])) \(counts.joined(separator: " "))"
  }
}
