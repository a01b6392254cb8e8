import Facts
import GitReader
import Support

/// Makes untrusted text (commit subjects, project names) safe to place inside one markdown line: it can
/// neither end the line, open a comment that looks like a marker, inject HTML, open a code span, nor reorder
/// what is shown with bidirectional controls (U+202E and its kin make "Fix `exe.txt`" read as something else in
/// an editor, a viewer or a terminal: "Trojan Source").
package enum MarkdownText {
  package static func inline(_ text: String) -> String {
    // Most subjects are printable ASCII with nothing to escape: they are returned as they are.
    let needsNoEscaping = text.utf8.allSatisfy { byte in
      byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<")
        && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "`") && byte != UInt8(ascii: "\\")
    }
    if needsNoEscaping { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "`": result += "\\`"
      case "\\": result += "\\\\"
      case "\t": result += " "
      default:
        let isControl =
          scalar.isASCII ? scalar.value < 0x20 || scalar.value == 0x7F : scalar.properties.generalCategory == .control
        if isControl || scalar == "\u{2028}" || scalar == "\u{2029}" || scalar.properties.isBidiControl {
          result += "\u{FFFD}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }

  /// A name for a terminal: control characters (escape sequences included) and bidirectional controls become
  /// U+FFFD.
  package static func terminalSafe(_ text: String) -> String {
    String(
      String.UnicodeScalarView(text.unicodeScalars.map { OneLineText.isUnsafe($0) ? "\u{FFFD}" : $0 }))
  }

  /// Text with its bidirectional controls replaced by U+FFFD, lines and all else kept: what `show` prints of a
  /// journal file, which may predate their neutralising (or hold the user's own notes).
  package static func neutralisingBidiControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: \.properties.isBidiControl) else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.isBidiControl ? "\u{FFFD}" : $0 }))
  }

  /// JSON with its bidirectional controls written as `\uXXXX` escapes: the same strings for a program, plain text
  /// on a terminal. Only valid inside JSON strings, where these characters can only be.
  package static func escapingBidiControlsInJSON(_ json: String) -> String {
    guard json.unicodeScalars.contains(where: \.properties.isBidiControl) else { return json }
    var result = ""
    for scalar in json.unicodeScalars {
      if scalar.properties.isBidiControl {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Subjects longer than this many characters are cut in the journal file (`show --json` keeps them whole).
  static let longestSubject = 200
  /// Branch names longer than this are cut in the journal file, as subjects are: git sets no limit (a packed
  /// ref can be any length), and the name shares its line with the subject.
  static let longestBranch = 60

  /// `text` cut to at most `longest` characters at a word boundary, with an ellipsis, when longer.
  static func shortened(_ text: String, to longest: Int = longestSubject) -> String {
    // A string has no more characters than UTF-8 bytes, and its byte count costs nothing: most are never counted.
    guard text.utf8.count > longest, text.count > longest else { return text }
    var cut = text.prefix(longest - 1)
    // At the last space, unless that would leave less than half: one enormous word is cut where it is.
    if let space = cut.lastIndex(where: { $0 == " " }),
      cut.distance(from: cut.startIndex, to: space) >= longest / 2
    {
      cut = cut[..<space]
    }
    while let last = cut.last, last == " " || last == "," || last == ";" || last == ":" { cut = cut.dropLast() }
    return cut + "…"
  }
}
