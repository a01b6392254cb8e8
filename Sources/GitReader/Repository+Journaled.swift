import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Repository {
  /// Opens a configured repository to be journaled, or says why it cannot be: the one health check behind the
  /// scan of every command, `repos` and `doctor`. A repository with no commits yet is readable: it has nothing
  /// to journal, which is no fault.
  package static func openJournaled(at path: String) throws(RepositoryProblem) -> Repository {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
      throw .missing
    }
    let repository: Repository
    do {
      repository = try Repository.open(at: path)
    } catch {
      throw error.isNotFound ? .notARepository : .unreadable(error.message)
    }
    if repository.isShallow { throw .shallow }
    return repository
  }
}
