import Facts
import GitReader
import Support

/// Makes untrusted text (commit subjects, project names, sentences, from this machine or another's records) safe to
/// place inside one markdown line: it can neither end the line, open a comment that looks like a marker, inject
/// HTML, open a code span or a fence, make a link, an image or a wiki link (a viewer would fetch an image, and a
/// link's text can hide where it leads), nor reorder what is shown with bidirectional controls (U+202E and its kin
/// make "Fix `exe.txt`" read as something else in an editor, a viewer or a terminal: "Trojan Source").
package enum MarkdownText {
  package static func inline(_ text: String) -> String {
    // Most subjects are printable ASCII with nothing to escape: they are returned as they are.
    let needsNoEscaping =
      text.utf8.first != UInt8(ascii: "~")
      && text.utf8.allSatisfy { byte in
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<")
          && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "`") && byte != UInt8(ascii: "\\")
          && byte != UInt8(ascii: "[") && byte != UInt8(ascii: "]")
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
      // Brackets make links, images (`![`) and wiki links (`[[`); escaped, each is a bracket.
      case "[": result += "\\["
      case "]": result += "\\]"
      // A text that starts a line (a sentence) could open a fence with `~~~`.
      case "~" where result.isEmpty: result += "\\~"
      case "\t": result += " "
      default:
        if isUnsafe(scalar) {
          result += "\u{FFFD}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }

  /// `inline`'s escapes undone: the text as it was typed, for a terminal (each control character and bidirectional
  /// control is still U+FFFD; see `terminalSafe`). Only what `inline` writes is undone: any other `&` or backslash
  /// stays as it is.
  package static func typed(_ markdown: some StringProtocol) -> String {
    guard markdown.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "\\") }) else {
      return String(markdown)
    }
    var result = ""
    result.reserveCapacity(markdown.utf8.count)
    var rest = Substring(markdown)
    while let first = rest.first {
      if first == "&", let entity = ["&amp;": "&", "&lt;": "<", "&gt;": ">"].first(where: { rest.hasPrefix($0.key) }) {
        result += entity.value
        rest = rest.dropFirst(entity.key.count)
      } else if first == "\\", let next = rest.dropFirst().first, "\\`[]~".contains(next) {
        result.append(next)
        rest = rest.dropFirst(2)
      } else {
        result.append(first)
        rest = rest.dropFirst()
      }
    }
    return result
  }

  /// Untrusted text for Markdown that is pasted elsewhere (a chat, an issue): shown as typed where that changes
  /// nothing, with a backslash before each character that would start markup there (emphasis, code, a link, an
  /// image, strikethrough, HTML or an entity, or a heading, a quote or a list at the start of the line). Control
  /// characters and bidirectional controls become U+FFFD, as in `inline`.
  package static func pasteable(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    let scalars = Array(text.unicodeScalars)
    func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
      scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }
    for (index, scalar) in scalars.enumerated() {
      let next = index + 1 < scalars.count ? scalars[index + 1] : " "
      let previous = index > 0 ? scalars[index - 1] : " "
      let isLetter = next.properties.isAlphabetic && next.isASCII
      let escapes: Bool
      switch scalar {
      case "\\", "`", "*", "[", "]", "~": escapes = true
      // Inside a word (`snake_case`) an underscore is no emphasis.
      case "_": escapes = !(isWordCharacter(previous) && isWordCharacter(next))
      // A tag, a comment, an autolink: `<` and a letter, `/`, `!` or `?`.
      case "<": escapes = isLetter || "/!?".unicodeScalars.contains(next)
      // An entity: `&` and a letter or `#`.
      case "&": escapes = isLetter || next == "#"
      // At the start: a heading, a quote, a list item.
      case "#", ">": escapes = index == 0
      case "-", "+": escapes = index == 0 && next == " "
      case ".", ")":
        escapes = index > 0 && next == " " && scalars[..<index].allSatisfy { ("0"..."9").contains($0) }
      default: escapes = false
      }
      if escapes {
        result += "\\"
        result.unicodeScalars.append(scalar)
      } else if scalar == "\t" {
        result += " "
      } else if isUnsafe(scalar) {
        result += "\u{FFFD}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Whether `inline` writes `scalar` as U+FFFD: a control character, a line or paragraph separator, a bidirectional
  /// control.
  private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    let isControl =
      scalar.isASCII ? scalar.value < 0x20 || scalar.value == 0x7F : scalar.properties.generalCategory == .control
    return isControl || scalar == "\u{2028}" || scalar == "\u{2029}" || scalar.properties.isBidiControl
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
