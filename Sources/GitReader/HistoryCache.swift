import Support

/// The commits a repository gave for the last long span read (a rebuild), with everything that decided them
/// (`stats-v2/<repository>/history.tsv`).
///
/// A long span's records depend only on the span, the author filter, merges, the mailmap and the references
/// the walk and the branch names start from: every local branch by name and target, HEAD, origin's HEAD and
/// origin's copy of the default branch, and `init.defaultBranch`. Commits never change. When all of these are
/// as they were, a second rebuild takes the records from here instead of walking the history again; when any
/// differs (a commit, an amend, a reset, a fetch into a branch or into origin's default branch, `update-ref`, a
/// branch made, renamed or deleted) it is a miss, and the walk's result replaces the file. References are read
/// afresh each time, loose or packed alike (`LocalBranches`, else libgit2), so packing them (`git pack-refs`)
/// changes nothing.
///
/// A mailmap taken from a blob (`mailmap.blob`) may name any reference; such a repository is never read from
/// here. The file is a `WalkedCommitsFile` with no header records.
struct HistoryCache {
  private let path: String?

  /// `folder` nil keeps nothing.
  init(folder: String?) {
    path = folder.map { $0 + "/history.tsv" }
  }

  var isEnabled: Bool { path != nil }

  /// Everything that decides a long span's records, hashed.
  struct Key: Equatable {
    let hash: String

    /// `span`: the window key of the same span, authors, merges and mailmap; `references`: the text of
    /// `Repository.walkReferences(branches:)`.
    init(span: WindowCache.Key, references: String) {
      hash = ContentHash.hex(of: "history-v1\n" + span.hash + "\n" + references)
    }
  }

  /// The commits stored under `key`, or nil.
  func commits(for key: Key) -> [WalkedCommit]? {
    guard let path else { return nil }
    return WalkedCommitsFile.read(path, key: key.hash)
  }

  /// Replaces the file (see `WalkedCommitsFile.write`).
  func store(_ commits: [WalkedCommit], for key: Key) {
    guard let path else { return }
    WalkedCommitsFile.write(commits, key: key.hash, to: path)
  }
}
