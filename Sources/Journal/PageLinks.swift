import Support

/// The line that ends a page's managed block and links its neighbours as wiki links, for Obsidian and any viewer
/// of `[[...]]` links: `← [[2026-11-27]] · [[2026-W49]] · [[2026-12-02]] →` on a day (the previous and next day
/// that have a file, and the day's week), `← [[2026-W48]] · [[2026-12]] · [[2026-W50]] →` on a week.
public struct PageLinks: Equatable, Sendable {
  public var previous: String?
  /// The page above this one (a day's week, a week's month), when that page is written.
  public var up: String?
  public var next: String?

  public init(previous: String?, up: String?, next: String?) {
    self.previous = previous
    self.up = up
    self.next = next
  }

  /// The line, or nil when there is nothing to link.
  public var line: String? {
    guard previous != nil || up != nil || next != nil else { return nil }
    // Made as bytes: a rebuild makes this line for every page, and the parts joined as strings cost a second
    // rebuild a twentieth of its days' instructions.
    var line: [UInt8] = []
    line.reserveCapacity(96)
    if let previous {
      line += "← [[".utf8
      line += previous.utf8
      line += "]]".utf8
    }
    if let up {
      if !line.isEmpty { line += " · ".utf8 }
      line += "[[".utf8
      line += up.utf8
      line += "]]".utf8
    }
    if let next {
      if !line.isEmpty { line += " · ".utf8 }
      line += "[[".utf8
      line += next.utf8
      line += "]] →".utf8
    }
    return String(decoding: line, as: UTF8.self)
  }

  /// Reads a line `line` wrote; nil for any other line. Names are taken as written: only gitjournal writes them.
  init?(line: some StringProtocol) {
    let parts = line.pieces(separatedBy: " · ")
    guard parts.allSatisfy({ $0.hasSuffix("]]") || $0.hasSuffix("]] →") }) else { return nil }
    var previous: String?
    var up: String?
    var next: String?
    for part in parts {
      if part.hasPrefix("← [["), part.hasSuffix("]]"), previous == nil, up == nil, next == nil {
        previous = String(part.dropFirst(4).dropLast(2))
      } else if part.hasPrefix("[["), part.hasSuffix("]] →"), next == nil {
        next = String(part.dropFirst(2).dropLast(4))
      } else if part.hasPrefix("[["), part.hasSuffix("]]"), up == nil, next == nil {
        up = String(part.dropFirst(2).dropLast(2))
      } else {
        return nil
      }
    }
    self.init(previous: previous, up: up, next: next)
  }

  /// Whether `line` is a links line: the block's last line when it has one.
  package static func isLinksLine(_ line: some StringProtocol) -> Bool {
    (line.hasPrefix("← [[") || line.hasPrefix("[[")) && PageLinks(line: line) != nil
  }
}
