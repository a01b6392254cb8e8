/// Whose commits count: everyone's, everyone's but some (`--all-authors` with `journal.ignoreAuthors`: bots), or
/// those whose (mailmapped) email is in a set. Emails are compared case-insensitively.
public enum AuthorFilter: Sendable, Equatable {
  case everyone
  /// Everyone but the emails matching one of these: an email, or a glob such as `*[bot]@users.noreply.github.com`
  /// (`*` and `?`, without case).
  case everyoneExcept([String])
  case emails(Set<String>)

  /// Matches any of `addresses`, whatever their case.
  public static func matching<S: Sequence<String>>(_ addresses: S) -> AuthorFilter {
    .emails(Set(addresses.map { $0.lowercased() }))
  }

  func includes(email: String) -> Bool {
    switch self {
    case .everyone: return true
    case .everyoneExcept(let patterns): return !patterns.contains { Self.matches($0, email) }
    case .emails(let emails): return emails.contains(email.lowercased())
    }
  }

  /// An email pattern against an email, without case: `*` any run of characters, `?` any one, everything else
  /// itself (brackets too: bots' emails hold `[bot]`).
  static func matches(_ pattern: String, _ email: String) -> Bool {
    let pattern = Array(pattern.lowercased().utf8)
    let email = Array(email.lowercased().utf8)
    var (p, e) = (0, 0)
    var star: (pattern: Int, email: Int)?
    while e < email.count {
      if p < pattern.count && (pattern[p] == UInt8(ascii: "?") || pattern[p] == email[e]) {
        p += 1
        e += 1
      } else if p < pattern.count && pattern[p] == UInt8(ascii: "*") {
        star = (p, e)
        p += 1
      } else if let last = star {
        // Let the last `*` take one more character.
        p = last.pattern + 1
        e = last.email + 1
        star = (last.pattern, last.email + 1)
      } else {
        return false
      }
    }
    while p < pattern.count && pattern[p] == UInt8(ascii: "*") { p += 1 }
    return p == pattern.count
  }
}
