import Facts
import GitReader
import Support

/// Puts a freshly rendered page into an existing journal file without touching what belongs to the user.
///
/// The file is the user's except for the managed block (between the marker lines) and gitjournal's own
/// front-matter keys. The end marker carries a checksum of the block as written; a block whose content no
/// longer matches was edited by hand, and that text is kept below the block instead of being replaced away.
public enum JournalMerger {
  static let beginMarker = "<!-- gitjournal:begin (generated from your commits; edits here move below the block) -->"
  package static let beginPrefix = "<!-- gitjournal:begin"
  package static let endPrefix = "<!-- gitjournal:end"

  /// The new file text. `existing` is nil when there is no file yet.
  public static func merge(page: JournalPage, into existing: String?, day: Day) -> String {
    merge(page: page, into: existing, pageName: day.description)
  }

  /// `merge` for any page; `pageName` (`2026-11-30`, `2026-W49`) dates the note above text kept from the block.
  static func merge(page: JournalPage, into existing: String?, pageName: String) -> String {
    mergeTellingFresh(page: page, into: existing, pageName: pageName).text
  }

  /// `merge`, and whether the result is exactly what gitjournal writes into a new file: then neither it nor the
  /// file it replaces holds any text of the user's (the merge keeps all of it), and losing it costs nothing that
  /// the next write cannot make again.
  static func mergeTellingFresh(
    page: JournalPage, into existing: String?, pageName: String
  ) -> (text: String, isFresh: Bool) {
    let block = renderBlock(page.blockBody)
    let fresh = renderFrontMatter(page.frontMatter, userLines: []) + "\n" + page.title + "\n\n" + block + "\n"
    // A file that is exactly what gitjournal would write holds no text of the user's: nothing to merge.
    guard let existing, !existing.isEmpty, existing != fresh else { return (fresh, true) }
    let merged = mergeUserText(page: page, block: block, into: existing, pageName: pageName)
    return (merged, merged == fresh)
  }

  /// The existing file with gitjournal's front-matter keys and its managed block replaced. The block is found in
  /// the body's bytes and the text around it copied whole: splitting a busy day's page into a string per line and
  /// joining them again was a tenth of a hook's instructions.
  private static func mergeUserText(page: JournalPage, block: String, into existing: String, pageName: String) -> String
  {
    let (frontMatterLines, bodyText) = splitFrontMatter(existing)
    let frontMatter = renderFrontMatter(page.frontMatter, userLines: frontMatterLines ?? [])
    let body = Array(bodyText.utf8)

    if let found = findBlock(inBytes: body) {
      // The lines between the markers, as written, and as the checksum was made of them: without the carriage
      // return of a file saved with CRLF line endings.
      let inside =
        found.end.lowerBound > found.begin.upperBound + 1
        ? body[(found.begin.upperBound + 1)..<(found.end.lowerBound - 1)] : nil
      let oldBody =
        inside.map { lines in
          lines.contains(13)
            ? String(decoding: withoutLineEndCarriageReturns(lines), as: UTF8.self)
            : String(decoding: lines, as: UTF8.self)
        } ?? ""
      var replacement = block
      let endLine = String(decoding: body[found.end], as: UTF8.self)
      if checksum(in: endLine) != ContentHash.hex(of: oldBody).prefix(12) && oldBody != page.blockBody {
        replacement +=
          "\n\n<!-- gitjournal: the text below was edited inside the generated block and kept here on \(pageName) -->"
        if let inside { replacement += "\n" + String(decoding: inside, as: UTF8.self) }
      }
      return frontMatter + String(decoding: body[..<found.begin.lowerBound], as: UTF8.self) + replacement
        + String(decoding: body[found.end.upperBound...], as: UTF8.self)
    }

    // A file without a block keeps all its text; the block goes at the end.
    var text = bodyText
    if !text.isEmpty && text.unicodeScalars.last != "\n" { text += "\n" }
    if !text.isEmpty { text += "\n" }
    return frontMatter + text + block + "\n"
  }

  /// `lines`' bytes without the carriage return that ends a line (the last before each line feed, and one at the
  /// very end).
  private static func withoutLineEndCarriageReturns(_ lines: ArraySlice<UInt8>) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(lines.count)
    var index = lines.startIndex
    while index < lines.endIndex {
      let byte = lines[index]
      let next = index + 1
      if !(byte == 13 && (next == lines.endIndex || lines[next] == 10)) { bytes.append(byte) }
      index = next
    }
    return bytes
  }

  /// `text` with the links line at the end of its managed block replaced by `links`, or nil when the block is not
  /// exactly as gitjournal wrote it (edited, or missing): such a file is left for its next update.
  static func replacingLinks(in text: String, with links: PageLinks?) -> String? {
    // Only the block's lines change: everything around it, front matter included, stays as it is.
    var lines = Self.lines(of: text)
    guard let found = findBlock(in: lines) else { return nil }
    let oldBody = lines[(found.begin + 1)..<found.end].joined(separator: "\n")
    guard checksum(in: lines[found.end]) == ContentHash.hex(of: oldBody).prefix(12) else { return nil }
    lines.replaceSubrange(
      found.begin...found.end, with: Self.lines(of: renderBlock(JournalPage.body(oldBody, links: links))))
    return lines.joined(separator: "\n")
  }

  /// The links line at the end of the managed block of `text`, or nil.
  static func links(in text: String) -> PageLinks? {
    let lines = Self.lines(of: text)
    guard let found = findBlock(in: lines), found.end > found.begin + 1 else { return nil }
    return JournalPage.links(inBody: lines[found.end - 1])
  }

  /// The lines of the file's managed block, without the markers, or nil when it has none.
  public static func blockBody(in text: String) -> String? {
    let lines = Self.lines(of: text)
    guard let found = findBlock(in: lines) else { return nil }
    return lines[(found.begin + 1)..<found.end].map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
      .joined(separator: "\n")
  }

  /// `links(in:)` for what the hook reads on every commit: the line before the first end marker with a checksum,
  /// found in the bytes without splitting the file into lines. Nil when that line is not a links line, in which
  /// case the caller works the links out afresh.
  static func links(inBytes bytes: [UInt8]) -> PageLinks? {
    let marker = Array(("\n" + endPrefix + " checksum=").utf8)
    guard bytes.count > marker.count else { return nil }
    var end: Int?
    var index = 0
    while index <= bytes.count - marker.count {
      if bytes[index] == marker[0] && bytes[index..<(index + marker.count)].elementsEqual(marker) {
        end = index
        break
      }
      index += 1
    }
    guard var lineEnd = end else { return nil }
    if lineEnd > 0 && bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
    var start = lineEnd
    while start > 0 && bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
    return PageLinks(line: String(decoding: bytes[start..<lineEnd], as: UTF8.self))
  }

  static func renderBlock(_ body: String) -> String {
    let checksum = ContentHash.hex(of: body).prefix(12)
    return beginMarker + "\n" + body + "\n" + endPrefix + " checksum=\(checksum) -->"
  }

  /// The managed block: the first end marker line that carries gitjournal's checksum, and the begin marker line
  /// nearest above it. Marker comments the user typed (no checksum) are the user's text, wherever they are.
  static func findBlock(in lines: [String]) -> (begin: Int, end: Int)? {
    var begin: Int?
    for (index, line) in lines.enumerated() {
      switch marker(line.utf8) {
      case .begin: begin = index
      case .end: if let begin { return (begin, index) }
      case nil: continue
      }
    }
    return nil
  }

  /// `findBlock(in:)` on a text's bytes, without splitting it into lines: the byte ranges of the two marker lines,
  /// without their line feeds.
  static func findBlock(inBytes bytes: [UInt8]) -> (begin: Range<Int>, end: Range<Int>)? {
    var begin: Range<Int>?
    var start = 0
    while true {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      switch marker(bytes[start..<end]) {
      case .begin: begin = start..<end
      case .end: if let begin { return (begin, start..<end) }
      case nil: break
      }
      guard end < bytes.count else { return nil }
      start = end + 1
    }
  }

  private enum Marker { case begin, end }

  /// Whether the line of these bytes is a begin marker, an end marker with gitjournal's checksum, or neither: made
  /// into text only when its first bytes allow a marker.
  private static func marker(_ line: some Collection<UInt8>) -> Marker? {
    guard mayBeMarker(line) else { return nil }
    let trimmed = String(decoding: line, as: UTF8.self).trimmingWhitespace()
    if trimmed.hasPrefix(beginPrefix) && trimmed.hasSuffix("-->") { return .begin }
    if trimmed.hasPrefix(endPrefix) && trimmed.hasSuffix("-->"), checksum(in: String(trimmed))?.count == 12 {
      return .end
    }
    return nil
  }

  /// Whether a line can be a marker once trimmed: its first byte after ASCII spaces is `<`, or not ASCII (which
  /// may be Unicode whitespace, left to `trimmingWhitespace`). Most of a page's lines are ruled out by a byte or
  /// two instead of being trimmed by Unicode scalars.
  private static func mayBeMarker(_ line: some Sequence<UInt8>) -> Bool {
    for byte in line {
      if byte == UInt8(ascii: " ") || (UInt8(ascii: "\t")...UInt8(ascii: "\r")).contains(byte) { continue }
      return byte == UInt8(ascii: "<") || byte >= 0x80
    }
    return false
  }

  private static func checksum(in endLine: String) -> Substring? {
    guard let range = endLine.firstOccurrence(of: "checksum=") else { return nil }
    return endLine[range.upperBound...].prefix { $0.isHexDigit }
  }

  /// Splits `---` front matter (its inner lines) from the rest of the text.
  /// Only the front matter's lines are split off: the body, most of a busy day's page, is taken whole from after
  /// the closing line.
  static func splitFrontMatter(_ text: String) -> (lines: [String]?, body: String) {
    guard text.hasPrefix("---\n") || text.hasPrefix("---\r\n") else { return (nil, text) }
    let bytes = text.utf8
    let lineFeed = UInt8(ascii: "\n")
    guard let firstEnd = bytes.firstIndex(of: lineFeed) else { return (nil, text) }
    var inner: [String] = []
    var lineStart = bytes.index(after: firstEnd)
    while lineStart < bytes.endIndex {
      let lineEnd = bytes[lineStart...].firstIndex(of: lineFeed) ?? bytes.endIndex
      let line = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
      let trimmed = line.trimmingWhitespace()
      if trimmed == "---" || trimmed == "..." {
        let bodyStart = lineEnd == bytes.endIndex ? lineEnd : bytes.index(after: lineEnd)
        return (inner, String(decoding: bytes[bodyStart...], as: UTF8.self))
      }
      inner.append(line)
      guard lineEnd < bytes.endIndex else { break }
      lineStart = bytes.index(after: lineEnd)
    }
    return (nil, text)
  }

  /// The text's lines, split at each line feed with any carriage return left on its line. Swift reads "\r\n" as
  /// one Character, so splitting at the Character "\n" would leave the lines of a CRLF file unsplit.
  static func lines(of text: some StringProtocol) -> [String] {
    text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// gitjournal's keys get their new values in place; every other line stays as the user wrote it.
  static func renderFrontMatter(_ owned: [(key: String, value: String)], userLines: [String]) -> String {
    var values = Dictionary(owned.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    var lines: [String] = []
    for line in userLines {
      if let colon = line.firstIndex(of: ":"), !line.hasPrefix(" "), !line.hasPrefix("\t") {
        let key = String(line[..<colon])
        if let value = values.removeValue(forKey: key) {
          lines.append("\(key): \(value)")
          continue
        }
      }
      lines.append(line)
    }
    for (key, _) in owned { if let value = values[key] { lines.append("\(key): \(value)") } }
    return "---\n" + lines.map { $0 + "\n" }.joined() + "---\n"
  }
}
