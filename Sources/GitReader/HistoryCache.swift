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
///
/// Listing thousands of branches for the key (a clone with its pull requests as branches) cost a second rebuild a
/// sixth of its time; so the key is also kept with the stamp of every file it was read from (`RepositoryStamp`
/// with origin's refs, `history-refs.tsv`: a record `refs-v1 <span key> <stamp digest> <history key>`). While those
/// files stamp as they did, the references are as they were, and the records are taken without listing them.
struct HistoryCache {
  private let path: String?
  private let referencesPath: String?

  /// `folder` nil keeps nothing.
  init(folder: String?) {
    path = folder.map { $0 + "/history.tsv" }
    referencesPath = folder.map { $0 + "/history-refs.tsv" }
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

    fileprivate init(hash: String) { self.hash = hash }
  }

  /// The key the records of `span` were stored under when the files the references are read from stamped as
  /// `stamp` now does (`RepositoryStamp.digest`), or nil.
  func key(span: WindowCache.Key, references stamp: String) -> Key? {
    guard let referencesPath else { return nil }
    var key: Key?
    StateFile.read(referencesPath) { record in
      if record.count == 4, record.field(0, is: "refs-v1"), record.field(1, equals: span.hash),
        record.field(2, equals: stamp)
      {
        key = Key(hash: record.text(3))
      }
      return false
    }
    return key
  }

  /// Keeps that the records of `span` under `key` are those of the references while their files stamp as `stamp`.
  /// Take the stamp before the references are read: a reference that moves after it makes the next look miss.
  func note(_ key: Key, span: WindowCache.Key, references stamp: String) {
    guard let referencesPath else { return }
    try? StateFile.write([["refs-v1", span.hash, stamp, key.hash]], to: referencesPath, isCache: true)
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
