import Support

/// Copies a text line by line, dropping the lines of the sections it is told to hide and putting their count where
/// the first of them was (`PrivateRedaction`).
struct SectionRedactor {
  /// What the count's line starts with, before its `- `.
  let indent: String
  private var lines: [String] = []
  /// The hidden section being copied: how many entries (commits) it dropped, and where its first dropped line was.
  private var hidden: (entries: Int, at: Int?)?

  init(indent: String) { self.indent = indent }

  var text: String {
    var copy = self
    copy.close()
    return copy.lines.joined(separator: "\n")
  }

  mutating func keep(_ line: some StringProtocol) { lines.append(String(line)) }

  /// The lines that follow belong to a hidden section, until `close`.
  mutating func open() {
    close()
    hidden = (0, nil)
  }

  /// A line of the text: dropped in a hidden section unless blank; `isEntry` counts it as one commit.
  mutating func take(_ line: some StringProtocol, isEntry: Bool) {
    guard var section = hidden, line.contains(where: { $0 != " " && $0 != "\t" }) else {
      keep(line)
      return
    }
    if isEntry { section.entries += 1 }
    if section.at == nil { section.at = lines.count }
    hidden = section
  }

  mutating func close() {
    if let section = hidden, let at = section.at {
      let summary =
        section.entries > 0
        ? PrivateRedaction.placeholder(commits: section.entries)
        : "a private project: its text stays on this machine"
      lines.insert(indent + "- " + summary, at: at)
    }
    hidden = nil
  }
}
