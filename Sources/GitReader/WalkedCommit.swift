import Support

/// A commit as a walk met it: the record the journal keeps, and its committer time, which decides which of a
/// commit's rebased or cherry-picked copies is kept (see `FoldedCommits`) and the order in which commits are
/// diffed.
struct WalkedCommit: Equatable {
  var record: CommitRecord
  /// Committer time in seconds since 1970.
  var committed: Int64
}

extension WalkedCommit {
  /// The commit as a `StateFile` record: `<id> <author time> <offset minutes> <merge 0|1> <committer time>
  /// <files> <insertions> <deletions> <name> <email> <subject> [<branch>]`, without the branch field for none (the
  /// field costs the hook a little for every commit it reads from a cache).
  var fields: [String] {
    let numbers = [
      record.authoredAt, Int64(record.authorOffsetMinutes), record.isMerge ? 1 : 0, committed,
      Int64(record.stats.filesChanged), Int64(record.stats.insertions), Int64(record.stats.deletions),
    ]
    var fields = [record.id.hex] + numbers.map(String.init) + [record.authorName, record.authorEmail, record.subject]
    if let branch = record.branch { fields.append(branch) }
    return fields
  }

  /// The commit read back from its record, or nil when the record is not one. A record without the branch field
  /// (a commit without one, or written before branches were named) gives a commit without a branch.
  init?(_ fields: StateRecord) {
    guard fields.count == 11 || fields.count == 12, let id = fields.objectID(0), let authored = fields.integer(1),
      let offset = fields.integer(2), let merge = fields.integer(3), merge == 0 || merge == 1,
      let committed = fields.integer(4), let files = fields.integer(5), let insertions = fields.integer(6),
      let deletions = fields.integer(7)
    else { return nil }
    record = CommitRecord(
      id: id, authorName: fields.text(8), authorEmail: fields.text(9), authoredAt: authored,
      authorOffsetMinutes: Int(offset), subject: fields.text(10), isMerge: merge == 1,
      stats: DiffStats(filesChanged: Int(files), insertions: Int(insertions), deletions: Int(deletions)),
      branch: fields.count == 12 && fields.bytes(11).count > 0 ? fields.text(11) : nil)
    self.committed = committed
  }
}

/// The file both caches of walked commits keep (`WindowCache`, `HistoryCache`): a `StateFile` of a record
/// `key <hash>`, the cache's own header records, one record per commit (`WalkedCommit.fields`) and a last record
/// `end`, without which the file was cut short. A file that does not parse, or holds another key, is a miss.
enum WalkedCommitsFile {
  /// The commits in the file at `path` under `key`, with `headerCount` records after the key, each of which
  /// `header` must accept; nil for a miss.
  static func read(
    _ path: String, key: String, headerCount: Int = 0, header: (StateRecord) -> Bool = { _ in true }
  ) -> [WalkedCommit]? {
    guard let bytes = ((try? AtomicFile.readContents(path)) ?? nil)?.bytes else { return nil }
    return bytes.withUnsafeBytes { buffer -> [WalkedCommit]? in
      // The key and the header records, a line each.
      var position = 0
      for index in 0...headerCount {
        guard let lineEnd = StateFile.firstIndex(of: 10, in: buffer, from: position, to: buffer.count) else {
          return nil
        }
        var isValid = false
        StateFile.read(buffer: buffer, lines: position..<lineEnd + 1) { record in
          isValid =
            index == 0
            ? record.count == 2 && record.field(0, is: "key") && record.field(1, equals: key) : header(record)
          return false
        }
        guard isValid else { return nil }
        position = lineEnd + 1
      }
      // The last whole line is `end` (a line cut short after it is no record), and every line before it a commit.
      guard let lastLineFeed = buffer[position...].lastIndex(of: 10) else { return nil }
      let endLine = (buffer[position..<lastLineFeed].lastIndex(of: 10) ?? position - 1) + 1
      guard buffer[endLine..<lastLineFeed].elementsEqual("end".utf8) else { return nil }
      return commits(in: buffer, lines: position..<endLine)
    }
  }

  /// How many bytes of commit records make a thread of their own: read on one thread, a long history's records
  /// took a visible part of a second rebuild's time (`bench/rebuild.sh`).
  static let bytesPerThread = 512 * 1024

  /// The commits of the records in `lines`, in order; nil when one of them is not a commit. Many are read in parts
  /// on several threads, each part a run of whole lines.
  static func commits(in buffer: UnsafeRawBufferPointer, lines: Range<Int>) -> [WalkedCommit]? {
    let parts =
      lines.count < 2 * bytesPerThread
      ? 1 : min(ProcessResources.usableProcessorCount, lines.count / bytesPerThread, SideThreads.maximumThreads)
    guard parts > 1 else { return commitsOfPart(in: buffer, lines: lines) }
    var starts = [lines.lowerBound]
    for part in 1..<parts {
      let middle = max(starts[part - 1], lines.lowerBound + lines.count / parts * part)
      let lineFeed = StateFile.firstIndex(of: 10, in: buffer, from: middle, to: lines.upperBound)
      starts.append(lineFeed.map { $0 + 1 } ?? lines.upperBound)
    }
    starts.append(lines.upperBound)
    let shared = SharedBuffer(buffer: buffer)
    let bounds = starts
    let read = SideThreads.map(parts: parts) { part in
      commitsOfPart(in: shared.buffer, lines: bounds[part]..<bounds[part + 1])
    }
    var commits: [WalkedCommit] = []
    commits.reserveCapacity(read.reduce(0) { $0 + ($1?.count ?? 0) })
    for part in read {
      guard let part else { return nil }
      commits += part
    }
    return commits
  }

  private static func commitsOfPart(in buffer: UnsafeRawBufferPointer, lines: Range<Int>) -> [WalkedCommit]? {
    var commits: [WalkedCommit] = []
    // A commit's record is about 160 bytes.
    commits.reserveCapacity(lines.count / 128)
    var isValid = true
    StateFile.read(buffer: buffer, lines: lines) { record in
      guard let commit = WalkedCommit(record) else {
        isValid = false
        return false
      }
      commits.append(commit)
      return true
    }
    return isValid ? commits : nil
  }

  /// The file's bytes, read by the threads of `commits(in:lines:)` while the caller keeps them.
  private struct SharedBuffer: @unchecked Sendable {
    let buffer: UnsafeRawBufferPointer
  }

  /// Replaces the file. A cache that cannot be written only costs time; it needs no fsync either, since a file
  /// lost or cut short by a crash is a miss.
  static func write(_ commits: [WalkedCommit], key: String, headers: [[String]] = [], to path: String) {
    var records = [["key", key]] + headers
    records += commits.map(\.fields)
    records.append(["end"])
    try? StateFile.write(records, to: path, isCache: true)
  }
}
