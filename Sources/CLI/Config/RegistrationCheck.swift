import Facts
import GitReader
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Whether a repository may join the journal: never the repository that holds the journal folder (committing the
/// journal would write to the journal), never one the config excludes, and, when the global hook registers it by
/// itself, only one `journal.include` allows.
enum RegistrationCheck {
  enum Refusal: Error, Equatable, CustomStringConvertible {
    case holdsJournal(repository: String, journal: String)
    case excludedEntry(repository: String, name: String)
    case excludedGlob(repository: String, pattern: String)
    case notIncluded(repository: String)

    var description: String {
      switch self {
      case .holdsJournal(let repository, let journal):
        return "\(repository) holds the journal folder \(journal): gitjournal never journals its own journal, "
          + "since each commit there would write to the journal"
      case .excludedEntry(let repository, let name):
        return "\(repository) is excluded (repo.\(name).exclude = true); unset that key to journal it"
      case .excludedGlob(let repository, let pattern):
        return "\(repository) matches journal.exclude = \(pattern); remove that pattern to journal it"
      case .notIncluded(let repository):
        return "\(repository) matches no journal.include pattern"
      }
    }
  }

  /// Why the repository registered as `root` (its main working tree, or a bare repository's folder) may not join,
  /// or nil. `automatic`: the global hook registering it, which `journal.include` limits.
  static func refusal(root: String, configuration: Configuration, automatic: Bool) -> Refusal? {
    if holdsJournal(root: root, journal: configuration.journalDirectory) {
      return .holdsJournal(repository: root, journal: configuration.journalDirectory)
    }
    if let entry = configuration.excludedRepositories.first(where: { $0.path == root }) {
      return .excludedEntry(repository: root, name: entry.name)
    }
    if let glob = configuration.exclude.first(where: { $0.matches(root) }) {
      return .excludedGlob(repository: root, pattern: glob.pattern)
    }
    if automatic, !configuration.include.isEmpty, !configuration.include.contains(where: { $0.matches(root) }) {
      return .notIncluded(repository: root)
    }
    return nil
  }

  /// Whether the journal folder lies in the repository at `root` (or, for a commit in a linked worktree, in that
  /// worktree `also`). A folder inside another repository nested in `root` belongs to that one, not to `root`.
  static func holdsJournal(root: String, journal: String, also worktree: String? = nil) -> Bool {
    let roots = [root] + (worktree.map { [$0] } ?? [])
    // The cheap test first: the hook asks on every commit.
    guard roots.contains(where: { journal == $0 || journal.hasPrefix($0 + "/") }) else { return false }
    var folder = journal
    while !FileManager.default.fileExists(atPath: folder) && folder.count > 1 {
      folder = PathText.folder(of: folder)
    }
    guard let holder = Repository.discover(from: folder) else { return false }
    return roots.contains(holder) || roots.contains(Repository.mainRoot(of: holder))
  }
}
