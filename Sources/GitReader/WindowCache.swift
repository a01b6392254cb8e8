import Foundation
import Support

/// The commits a repository gave for the last short span read (`stats-v2/<repository>/window.tsv`), with the
/// branch tips they were read from.
///
/// What a span holds depends only on the tips, the span, the author filter, merges and the mailmap: commits
/// never change. When the tips are as they were, the hook takes the records from here instead of walking
/// history again; when they moved forward, it walks only the new commits. A commit in one repository thus
/// costs each other journaled repository a reference listing and one small file read, however busy its day.
///
/// The file is a `StateFile`: a record `key <hash>`, a record `tips <id>...`, one record per commit (see
/// `WalkedCommit.fields`), and a last record `end`, without which the file was cut short. A file that does not
/// parse is a miss.
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
    var commits: [WalkedCommit] = []
    var isComplete = false
    var isValid = true
    var index = 0
    StateFile.read(path) { record in
      defer { index += 1 }
      switch index {
      case 0:
        isValid = record.count == 2 && record.text(0) == "key" && record.text(1) == key.hash
      case 1:
        let ids = (1..<max(record.count, 1)).compactMap { record.objectID($0) }
        isValid = record.text(0) == "tips" && ids.count == record.count - 1
        tips = ids
      default:
        if record.count == 1 && record.text(0) == "end" {
          isComplete = true
        } else if !isComplete, let commit = WalkedCommit(record) {
          commits.append(commit)
        } else {
          isValid = false
        }
      }
      return isValid
    }
    guard isValid, isComplete, let tips else { return nil }
    return Window(tips: tips, commits: commits)
  }

  /// Replaces the file. A cache that cannot be written only costs time; it needs no fsync either, since a
  /// file lost or cut short by a crash is a miss.
  func store(_ window: Window, for key: Key) {
    guard let path else { return }
    var records = [["key", key.hash], ["tips"] + window.tips.map(\.hex)]
    records += window.commits.map(\.fields)
    records.append(["end"])
    try? StateFile.write(records, to: path)
  }
}
