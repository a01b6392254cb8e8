import Foundation
import Support

/// The commits a repository gave for the last short span read (`stats-v1/<repository>/window.tsv`), with the
/// branch tips they were read from.
///
/// What a span holds depends only on the tips, the span, the author filter, merges and the mailmap: commits
/// never change. When the tips are as they were, the hook takes the records from here instead of walking
/// history again; when they moved forward, it walks only the new commits. A commit in one repository thus
/// costs each other journaled repository a reference listing and one small file read, however busy its day.
///
/// The file: a line `key <hash>`, a line `tips <id> <id>...`, then one commit per line, fields separated by
/// tabs: `<id> <author time> <offset minutes> <merge 0|1> <committer time> <files> <insertions> <deletions>
/// <name> <email> <subject>`, the last three with `\`, tab, CR and LF escaped. A file that does not parse is
/// a miss.
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
    guard let path, let data = FileManager.default.contents(atPath: path) else { return nil }
    let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // The last line is the empty one after the final newline: a file cut short has none.
    guard lines.count >= 3, lines.last!.isEmpty, String(decoding: lines[0], as: UTF8.self) == "key " + key.hash
    else { return nil }
    let tipFields = String(decoding: lines[1], as: UTF8.self).split(separator: " ")
    guard tipFields.first == "tips" else { return nil }
    let tips = tipFields.dropFirst().compactMap { ObjectID(hex: $0) }
    guard tips.count == tipFields.count - 1 else { return nil }
    var commits: [WalkedCommit] = []
    for line in lines.dropFirst(2).dropLast() {
      guard let commit = Self.commit(from: line) else { return nil }
      commits.append(commit)
    }
    return Window(tips: tips, commits: commits)
  }

  /// Replaces the file. A cache that cannot be written only costs time; it needs no fsync either, since a
  /// file lost or cut short by a crash is a miss.
  func store(_ window: Window, for key: Key) {
    guard let path else { return }
    var text = "key \(key.hash)\ntips"
    for tip in window.tips { text += " " + tip.hex }
    text += "\n"
    for commit in window.commits {
      let record = commit.record
      let numbers = [
        record.authoredAt, Int64(record.authorOffsetMinutes), record.isMerge ? 1 : 0, commit.committed,
        Int64(record.stats.filesChanged), Int64(record.stats.insertions), Int64(record.stats.deletions),
      ]
      let texts = [record.authorName, record.authorEmail, record.subject].map(Self.escape)
      text += ([record.id.hex] + numbers.map(String.init) + texts).joined(separator: "\t") + "\n"
    }
    try? makeFolders((path as NSString).deletingLastPathComponent)
    try? AtomicFile.write(text, to: path, durable: false)
  }

  private static func commit(from line: Data) -> WalkedCommit? {
    let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    guard fields.count == 11, let id = ObjectID(hex: fields[0]) else { return nil }
    let numbers = fields[1...7].compactMap { Int64($0) }
    guard numbers.count == 7, numbers[2] == 0 || numbers[2] == 1 else { return nil }
    let record = CommitRecord(
      id: id, authorName: unescape(fields[8]), authorEmail: unescape(fields[9]),
      authoredAt: numbers[0], authorOffsetMinutes: Int(numbers[1]), subject: unescape(fields[10]),
      isMerge: numbers[2] == 1,
      stats: DiffStats(filesChanged: Int(numbers[4]), insertions: Int(numbers[5]), deletions: Int(numbers[6])))
    return WalkedCommit(record: record, committed: numbers[3])
  }

  static func escape(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 92 || $0 == 9 || $0 == 10 || $0 == 13 }) else { return text }
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": escaped += "\\\\"
      case "\t": escaped += "\\t"
      case "\n": escaped += "\\n"
      case "\r": escaped += "\\r"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  static func unescape(_ text: String) -> String {
    guard text.utf8.contains(92) else { return text }
    var result = ""
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      guard scalar == "\\", let next = scalars.next() else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch next {
      case "t": result += "\t"
      case "n": result += "\n"
      case "r": result += "\r"
      default: result.unicodeScalars.append(next)
      }
    }
    return result
  }
}
