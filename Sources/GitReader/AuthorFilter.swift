/// Whose commits count: everyone's, or those whose (mailmapped) email is in a set, compared case-insensitively.
public enum AuthorFilter: Sendable, Equatable {
  case everyone
  case emails(Set<String>)

  /// Matches any of `addresses`, whatever their case.
  public static func matching<S: Sequence<String>>(_ addresses: S) -> AuthorFilter {
    .emails(Set(addresses.map { $0.lowercased() }))
  }

  func includes(email: String) -> Bool {
    switch self {
    case .everyone: return true
    case .emails(let emails): return emails.contains(email.lowercased())
    }
  }
}
