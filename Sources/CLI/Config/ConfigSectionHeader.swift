/// A `[section]` or `[section "subsection"]` line of a git-config file, as git writes and reads it: the section
/// lower-cased (its case does not matter), the subsection unescaped and case-sensitive.
struct ConfigSectionHeader: Equatable {
  let section: String
  let subsection: String?
  /// Nothing but a comment or blanks follows the `]` (git also allows `[a] key = value` on one line).
  let isAlone: Bool

  init?(line: String) {
    var characters = Substring(line).drop { $0 == " " || $0 == "\t" }
    guard characters.first == "[" else { return nil }
    characters = characters.dropFirst()
    var name = ""
    while let character = characters.first, character != "]", character != " ", character != "\t",
      character != "\""
    {
      name.append(character)
      characters = characters.dropFirst()
    }
    characters = characters.drop { $0 == " " || $0 == "\t" }
    var subsection: String?
    if characters.first == "\"" {
      characters = characters.dropFirst()
      var text = ""
      var closed = false
      while let character = characters.first {
        characters = characters.dropFirst()
        if character == "\\", let next = characters.first {
          text.append(next)
          characters = characters.dropFirst()
        } else if character == "\"" {
          closed = true
          break
        } else {
          text.append(character)
        }
      }
      guard closed else { return nil }
      subsection = text
    } else if let dot = name.firstIndex(of: ".") {
      // The old `[section.subsection]` form.
      subsection = String(name[name.index(after: dot)...]).lowercased()
      name = String(name[..<dot])
    }
    guard characters.first == "]", !name.isEmpty else { return nil }
    let rest = characters.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\r" }
    self.section = name.lowercased()
    self.subsection = subsection
    isAlone = rest.isEmpty || rest.first == "#" || rest.first == ";"
  }
}
