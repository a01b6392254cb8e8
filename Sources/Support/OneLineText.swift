/// Text that came from outside gitjournal (a model server's error answer, a state file another process wrote),
/// made fit for one line of a terminal or a log: tabs and line breaks become spaces; other control characters
/// (a terminal's escape sequences among them) and bidirectional controls become U+FFFD; at most `limit` Unicode
/// scalars are kept, the cut marked with an ellipsis.
package enum OneLineText {
  package static func make(_ text: String, limit: Int = 300) -> String {
    // Most text is printable ASCII within the limit: returned as it is, without a look at each scalar's properties.
    if text.utf8.count <= limit && text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    var result = String.UnicodeScalarView()
    var kept = 0
    for scalar in text.unicodeScalars {
      guard kept < limit else {
        result.append("…")
        break
      }
      switch scalar {
      case "\t", "\n", "\r", "\u{2028}", "\u{2029}": result.append(" ")
      default: result.append(isUnsafe(scalar) ? "\u{FFFD}" : scalar)
      }
      kept += 1
    }
    return String(result)
  }

  /// Whether a terminal would act on `scalar` rather than show it: a control character (an escape sequence begins
  /// with one) or a bidirectional control, which reorders what follows it.
  package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .control || scalar.properties.isBidiControl
  }
}
