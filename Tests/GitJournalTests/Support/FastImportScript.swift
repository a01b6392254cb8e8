import Foundation

/// A `git fast-import` stream built in memory: many commits, branches and merges made by one `git` process.
struct FastImportScript {
  /// A change to the tree of the commit being written.
  enum Change {
    case write(path: String, content: String)
    case delete(path: String)
  }

  private(set) var data = Data()
  private var nextMark = 1

  /// Appends a commit to `branch` (its current tip is the first parent; `from` starts a new branch at a mark)
  /// and returns its mark.
  @discardableResult
  mutating func commit(
    branch: String, email: String, authorTime: Int64, committerTime: Int64, zone: String, message: String,
    from: Int? = nil, merging: Int? = nil, changes: [Change]
  ) -> Int {
    let mark = nextMark
    nextMark += 1
    append("commit refs/heads/\(branch)\nmark :\(mark)\n")
    append("author Ada Lovelace <\(email)> \(authorTime) \(zone)\n")
    append("committer Ada Lovelace <\(email)> \(committerTime) \(zone)\n")
    appendData(message)
    if let from { append("from :\(from)\n") }
    if let merging { append("merge :\(merging)\n") }
    for change in changes {
      switch change {
      case .write(let path, let content):
        append("M 100644 inline \(path)\n")
        appendData(content)
      case .delete(let path):
        append("D \(path)\n")
      }
    }
    append("\n")
    return mark
  }

  /// Points `branch` at the commit `mark`.
  mutating func reset(branch: String, to mark: Int) {
    append("reset refs/heads/\(branch)\nfrom :\(mark)\n\n")
  }

  private mutating func append(_ text: String) { data.append(contentsOf: Array(text.utf8)) }

  private mutating func appendData(_ text: String) {
    let bytes = Array(text.utf8)
    append("data \(bytes.count)\n")
    data.append(contentsOf: bytes)
    append("\n")
  }
}

extension TemporaryRepository {
  /// Feeds `script` to `git fast-import` and checks out `main`.
  func importHistory(_ script: FastImportScript) throws {
    try git(["fast-import", "--quiet"], input: script.data)
    try git("checkout", "-q", "-f", "main")
  }
}
