import Foundation

/// The commit records a repository gave for the last short span read (`stats-v1/<repository>/window.tsv`).
///
/// What a span holds depends only on the branch tips, the span, the author filter, merges and the mailmap:
/// commits never change. When all of these are as they were, the hook takes the records from here instead
/// of walking history again, so a commit in one repository costs each of the other journaled repositories a
/// reference listing and one small file read.
///
/// The file is a key line, `key <hash>`, then one record per line, fields separated by tabs:
/// `<id> <author time> <offset minutes> <merge 0|1> <files> <insertions> <deletions> <name> <email> <subject>`,
/// the last three with `\`, tab, CR and LF escaped. A file that does not parse is a miss.
struct WindowCache {
  /// Spans longer than this (a rebuild) are not cached: their records are many and are not asked for again.
  static let longestSpan: Int64 = 7 * 24 * 60 * 60

  private let path: String?

  /// `folder` nil keeps nothing.
  init(folder: String?) {
    path = folder.map { $0 + "/window.tsv" }
  }

  /// What decides a span's records, hashed.
  struct Key: Equatable {
    let hash: String

    init(
      tips: [ObjectID], start: Int64?, end: Int64?, authors: AuthorFilter, includeMerges: Bool,
      mailmap: String
    ) {
      var text = "window-v1\n"
      text += tips.map(\.hex).sorted().joined(separator: " ") + "\n"
      text += "\(start.map(String.init) ?? "-") \(end.map(String.init) ?? "-") merges=\(includeMerges)\n"
      switch authors {
      case .everyone: text += "authors=*\n"
      case .emails(let emails): text += "authors=" + emails.sorted().joined(separator: " ") + "\n"
      }
      text += mailmap
      hash = ContentHash.hex(of: text)
    }
  }

  /// The records stored under `key`, or nil.
  func records(for key: Key) -> [CommitRecord]? {
    guard let path, let data = FileManager.default.contents(atPath: path) else { return nil }
    let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // The last line is the empty one after the final newline: a file cut short has none.
    guard lines.count >= 2, String(decoding: lines[0], as: UTF8.self) == "key " + key.hash, lines.last!.isEmpty
    else { return nil }
    var records: [CommitRecord] = []
    for line in lines.dropFirst().dropLast() {
      guard let record = Self.record(from: line) else { return nil }
      records.append(record)
    }
    return records
  }

  /// Replaces the file. A cache that cannot be written only costs time; it needs no fsync either, since a
  /// file lost or cut short by a crash is a miss.
  func store(_ records: [CommitRecord], for key: Key) {
    guard let path else { return }
    var text = "key \(key.hash)\n"
    for record in records {
      let numbers = [
        record.authoredAt, Int64(record.authorOffsetMinutes), record.isMerge ? 1 : 0,
        Int64(record.stats.filesChanged), Int64(record.stats.insertions), Int64(record.stats.deletions),
      ]
      let fields =
        [record.id] + numbers.map(String.init)
        + [record.authorName, record.authorEmail, record.subject]
        .map(Self.escape)
      text += fields.joined(separator: "\t") + "\n"
    }
    try? makeFolders((path as NSString).deletingLastPathComponent)
    try? AtomicFile.write(text, to: path, durable: false)
  }

  private static func record(from line: Data) -> CommitRecord? {
    let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    guard fields.count == 10, fields[0].utf8.count == 40 else { return nil }
    let numbers = fields[1...6].compactMap { Int64($0) }
    guard numbers.count == 6, numbers[2] == 0 || numbers[2] == 1 else { return nil }
    return CommitRecord(
      id: fields[0], authorName: unescape(fields[7]), authorEmail: unescape(fields[8]),
      authoredAt: numbers[0], authorOffsetMinutes: Int(numbers[1]), subject: unescape(fields[9]),
      isMerge: numbers[2] == 1,
      stats: DiffStats(filesChanged: Int(numbers[3]), insertions: Int(numbers[4]), deletions: Int(numbers[5])))
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
