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

  public var description: String { "skipped \(name) (\(path)): \(problem)" }
}
