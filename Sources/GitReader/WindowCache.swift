import Support

/// The commits a repository gave for the last short span read (`stats-v2/<repository>/window.tsv`), with the
/// branch tips they were read from.
///
/// What a span holds depends only on the tips, the span, the author filter, merges and the mailmap: commits
/// never change. When the tips are as they were, the hook takes the records from here instead of walking
/// history again; when they moved forward, it walks only the new commits. A commit in one repository thus
/// costs each other journaled repository a reference listing and one small file read, however busy its day.
///
/// The file is a `WalkedCommitsFile` whose one header record is `tips <id>...`.
struct WindowCache {
  /// Spans longer than this (a rebuild) are not cached: their records are many and are not asked for again.
  static let longestSpan: Int64 = 7 * 24 * 60 * 60

  private let path: String?

  /// `folder` nil keeps nothing.
  init(folder: String?) {
    path = folder.map { $0 + "/window.tsv" }
  }

  var isEnabled: Bool { path != nil }

  /// What decides a span's records besides the tips, hashed.
  struct Key: Equatable {
    let hash: String

    init(start: Int64, end: Int64, authors: AuthorFilter, includeMerges: Bool, mailmap: String) {
      var text = "window-v1\n\(start) \(end) merges=\(includeMerges)\n"
      switch authors {
      case .everyone: text += "authors=*\n"
      case .everyoneExcept(let patterns): text += "authors=* but " + patterns.sorted().joined(separator: " ") + "\n"
      case .emails(let emails): text += "authors=" + emails.sorted().joined(separator: " ") + "\n"
      }
      text += mailmap
      hash = ContentHash.hex(of: text)
    }
  }

  struct Window: Equatable {
    var tips: [ObjectID]
    var commits: [WalkedCommit]
  }

  /// The window stored under `key`, or nil.
  func window(for key: Key) -> Window? {
    guard let path else { return nil }
    var tips: [ObjectID]?
    let commits = WalkedCommitsFile.read(path, key: key.hash, headerCount: 1) { record in
      let ids = (1..<max(record.count, 1)).compactMap { record.objectID($0) }
      tips = ids
      return record.text(0) == "tips" && ids.count == record.count - 1
    }
    guard let commits, let tips else { return nil }
    return Window(tips: tips, commits: commits)
  }

  /// Replaces the file (see `WalkedCommitsFile.write`).
  func store(_ window: Window, for key: Key) {
    guard let path else { return }
    WalkedCommitsFile.write(window.commits, key: key.hash, headers: [["tips"] + window.tips.map(\.hex)], to: path)
  }
}
