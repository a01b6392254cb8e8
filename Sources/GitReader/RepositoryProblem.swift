import Support

/// Why a configured repository was skipped. Each is reported in one line; the other repositories go on.
public enum RepositoryProblem: Error, Equatable, Sendable, CustomStringConvertible {
  case missing
  case notARepository
  case shallow
  case noIdentity
  case unreadable(String)

  public var description: String {
    switch self {
    case .missing: return "the folder does not exist"
    case .notARepository: return "not a git repository"
    case .shallow:
      return "it is a shallow clone, so its history is incomplete; run 'git fetch --unshallow' there"
    case .noIdentity:
      return "no author email is known; set journal.author in the gitjournal config or user.email in git"
    case .unreadable(let reason): return "cannot be read: \(reason)"
    }
  }

  /// A few words for the `repos` list and `doctor`.
  public var summary: String {
    switch self {
    case .missing: return "missing"
    case .notARepository: return "not a git repository"
    case .shallow: return "shallow clone (skipped)"
    case .noIdentity: return "no author email"
    case .unreadable(let reason): return "unreadable: \(reason)"
    }
  }
}
