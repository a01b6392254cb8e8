import GitReader

/// A repository that was left out, with the reason.
public struct SkippedRepository: Equatable, Sendable, CustomStringConvertible {
  public let name: String
  public let path: String
  public let problem: RepositoryProblem

  public init(name: String, path: String, problem: RepositoryProblem) {
    self.name = name
    self.path = path
    self.problem = problem
  }

  /// The problem, and for a folder that has gone what to do about it.
  public var description: String {
    switch problem {
    case .missing, .notARepository:
      return "skipped \(name) (\(path)): \(problem); if it moved, run 'gitjournal repos move \(name) <new-path>', "
        + "if it is gone, 'gitjournal repos remove \(name)'"
    default:
      return "skipped \(name) (\(path)): \(problem)"
    }
  }
}
