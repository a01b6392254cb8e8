/// Text that came from outside gitjournal (a model server's error answer, a state file another process wrote),
/// made fit for one line of a terminal or a log: tabs and line breaks become spaces; other control characters
/// (a terminal's escape sequences among them) and bidirectional controls become U+FFFD; at most `limit`
/// characters are kept, the cut marked with an ellipsis.
package enum OneLineText {
  package static func make(_ text: String, limit: Int = 300) -> String {
    var result = String.UnicodeScalarView()
    var kept = 0
    for scalar in text.unicodeScalars {
      guard kept < limit else {
        result.append("…")
        break
      }
      switch scalar {
      case "\t", "\n", "\r", "\u{2028}", "\u{2029}": result.append(" ")
      default:
        let isControl = scalar.properties.generalCategory == .control || scalar.properties.isBidiControl
        result.append(isControl ? "\u{FFFD}" : scalar)
      }
      kept += 1
    }
    return String(result)
  }
}
