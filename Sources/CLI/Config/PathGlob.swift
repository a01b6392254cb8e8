import Support

/// A `journal.include` or `journal.exclude` pattern, matched against a repository's folder.
///
/// A pattern with a `/` is a path (absolute, or from `~/`): it matches a repository whose folder, or a folder
/// containing it, matches, so `~/code` covers every repository under `~/code`. A pattern without a `/` is a
/// folder name (`*-scratch`, `vendor`), matched against each folder on the repository's path, as in gitignore.
/// `*` and `?` stay within one folder name, `**` spans any number of them, `[...]` is a set of characters.
struct PathGlob: Equatable, Sendable {
  /// The pattern with `~` expanded, or the bare folder-name pattern.
  let pattern: String
  let isName: Bool

  /// Nil when `text` is neither absolute, nor from `~/`, nor a plain name.
  init?(_ text: String, home: String) {
    var text = text
    if text.hasSuffix("/") && text.count > 1 { text.removeLast() }
    if text == "~" {
      text = home
    } else if text.hasPrefix("~/") {
      text = home + text.dropFirst()
    }
    guard !text.isEmpty else { return nil }
    if text.hasPrefix("/") {
      pattern = text
      isName = false
    } else if !text.contains("/" as Character) {
      pattern = text
      isName = true
    } else {
      return nil
    }
  }

  /// Whether the repository at the absolute `path` matches.
  func matches(_ path: String) -> Bool {
    let components = path.split(separator: "/").map { Array($0.utf8) }
    if isName {
      let name = Array(pattern.utf8)
      return components.contains { Self.matchName(name[...], $0[...]) }
    }
    let parts = pattern.split(separator: "/").map { Array($0.utf8) }
    // The folder or one of its parents: a prefix of the path's components.
    return (1...max(components.count, 1)).contains { count in
      Self.matchPath(parts[...], components.prefix(count))
    }
  }

  /// `parts` (folder-name patterns, `**` among them) against `components`, whole.
  private static func matchPath(_ parts: ArraySlice<[UInt8]>, _ components: ArraySlice<[UInt8]>) -> Bool {
    guard let first = parts.first else { return components.isEmpty }
    if first == Array("**".utf8) {
      let rest = parts.dropFirst()
      return (0...components.count).contains { matchPath(rest, components.dropFirst($0)) }
    }
    guard let component = components.first, matchName(first[...], component[...]) else { return false }
    return matchPath(parts.dropFirst(), components.dropFirst())
  }

  /// One folder name against one pattern of `*`, `?`, `[...]` and literal bytes.
  private static func matchName(_ pattern: ArraySlice<UInt8>, _ name: ArraySlice<UInt8>) -> Bool {
    guard let first = pattern.first else { return name.isEmpty }
    switch first {
    case UInt8(ascii: "*"):
      let rest = pattern.dropFirst()
      return (0...name.count).contains { matchName(rest, name.dropFirst($0)) }
    case UInt8(ascii: "?"):
      return !name.isEmpty && matchName(pattern.dropFirst(), name.dropFirst())
    case UInt8(ascii: "["):
      guard let byte = name.first, let (matched, rest) = matchSet(pattern.dropFirst(), byte) else {
        return !name.isEmpty && name.first == first && matchName(pattern.dropFirst(), name.dropFirst())
      }
      return matched && matchName(rest, name.dropFirst())
    default:
      return name.first == first && matchName(pattern.dropFirst(), name.dropFirst())
    }
  }

  /// A `[...]` set after its `[`: whether `byte` is in it, and the pattern after its `]`; nil when no `]` closes
  /// it (the `[` is then a literal character).
  private static func matchSet(_ pattern: ArraySlice<UInt8>, _ byte: UInt8) -> (Bool, ArraySlice<UInt8>)? {
    var rest = pattern
    let negated = rest.first == UInt8(ascii: "!") || rest.first == UInt8(ascii: "^")
    if negated { rest = rest.dropFirst() }
    var matched = false
    var first = true
    while let current = rest.first {
      if current == UInt8(ascii: "]") && !first { return (matched != negated, rest.dropFirst()) }
      first = false
      rest = rest.dropFirst()
      if rest.count >= 2, rest.first == UInt8(ascii: "-"), rest.dropFirst().first != UInt8(ascii: "]") {
        let upper = rest.dropFirst().first!
        if current <= byte && byte <= upper { matched = true }
        rest = rest.dropFirst(2)
      } else if current == byte {
        matched = true
      }
    }
    return nil
  }
}
