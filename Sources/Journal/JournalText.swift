import Support

/// A journal file's bytes as text the merger can work on, and back, losing nothing: a file that is valid UTF-8
/// is its text; in one that is not (notes pasted from a Latin-1 file, a binary accident), every line that does
/// not decode stands in the text as a placeholder line and gets its exact bytes back when the file is written.
/// The merger keeps lines whole, so a placeholder is never split or changed.
struct JournalText {
  let text: String
  /// The bytes of each line that is not UTF-8, by its placeholder.
  private let rawLines: [String: [UInt8]]

  /// A line no UTF-8 text of a user holds: a noncharacter, then a number.
  private static let placeholderPrefix = "\u{FFFF}gitjournal-raw-line-"

  init(bytes: [UInt8]) {
    if let text = String(validating: bytes, as: UTF8.self) {
      self.text = text
      rawLines = [:]
      return
    }
    var lines: [String] = []
    var raw: [String: [UInt8]] = [:]
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      if let decoded = String(validating: line, as: UTF8.self) {
        lines.append(decoded)
      } else {
        let placeholder = Self.placeholderPrefix + String(raw.count)
        raw[placeholder] = Array(line)
        lines.append(placeholder)
      }
    }
    text = lines.joined(separator: "\n")
    rawLines = raw
  }

  /// `merged` (text that came from `text` by the merger) as bytes, every placeholder line back as it was.
  func bytes(of merged: String) -> [UInt8] {
    guard !rawLines.isEmpty else { return Array(merged.utf8) }
    var bytes: [UInt8] = []
    for (index, line) in merged.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .enumerated()
    {
      if index > 0 { bytes.append(UInt8(ascii: "\n")) }
      let text = String(decoding: line, as: UTF8.self)
      bytes += rawLines[text] ?? Array(line)
    }
    return bytes
  }
}
