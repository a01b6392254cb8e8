/// What `repos` and `doctor` say about a configured repository, from the same check the scan makes
/// (`Repository.openJournaled(at:)`).
package enum RepositoryHealth: Equatable, Sendable {
  case readable
  case problem(RepositoryProblem)

  package init(path: String) {
    do {
      _ = try Repository.openJournaled(at: path)
      self = .readable
    } catch {
      self = .problem(error)
    }
  }

  /// A few words for the `repos` list.
  package var summary: String {
    switch self {
    case .readable: return "ok"
    case .problem(let problem): return problem.summary
    }
  }
}
