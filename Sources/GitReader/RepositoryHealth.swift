/// What `repos` and `doctor` say about a configured repository, from the same check the scan makes
/// (`Repository.openJournaled(at:)`).
package enum RepositoryHealth: Equatable, Sendable {
  case readable
  /// Readable, with nothing to journal yet: information, not a problem.
  case noCommitsYet
  case problem(RepositoryProblem)

  package init(path: String) {
    do {
      self = try Repository.openJournaled(at: path).isEmpty ? .noCommitsYet : .readable
    } catch {
      self = .problem(error)
    }
  }

  /// A few words for the `repos` list.
  package var summary: String {
    switch self {
    case .readable: return "ok"
    case .noCommitsYet: return "no commits yet"
    case .problem(let problem): return problem.summary
    }
  }
}
