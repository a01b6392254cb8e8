import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Line statistics already computed, kept on disk: commits never change, so a commit is diffed once.
///
/// One folder per repository under `${XDG_CACHE_HOME:-~/.cache}/gitjournal/stats-v2/`, one `StateFile` per month
/// of author time (UTC), of `<id> <files> <insertions> <deletions>` records. The hook reads only the current
/// month of each repository. New records are appended (`StateFile.append`), so concurrent writers never
/// interleave; a damaged record is ignored and recomputed.
final class StatsCache {
  private let folder: String?
  private var months: [Int: [ObjectID: DiffStats]] = [:]
  private var pending: [Int: [[String]]] = [:]

  /// `folder` nil disables the cache (nothing read or written).
  init(folder: String?) { self.folder = folder }

  /// The cache folder of the repository whose common git dir is `commonDirectory`. Counts that leave paths out
  /// (`PathFilter`) have a folder of their own per set of patterns, with its own windows: changing the patterns
  /// computes the counts afresh, and changing them back finds the old ones.
  static func folder(cacheDirectory: String, commonDirectory: String, excluding filter: PathFilter? = nil) -> String {
    let key = filter.map { commonDirectory + "\0exclude\0" + $0.signature } ?? commonDirectory
    // The prefix made into a String first: `String + Substring` is the standard library's generic append, whose first
    // call looks up Substring's associated types by name, a visible part of a hook (`bench/instructions.sh`).
    return cacheDirectory + "/stats-v2/" + String(ContentHash.hex(of: key).prefix(16))
  }

  func stats(for id: ObjectID, authoredAt: Int64) -> DiffStats? {
    let month = Self.month(of: authoredAt)
    if months[month] == nil { months[month] = load(month) }
    return months[month]?[id]
  }

  func store(_ stats: DiffStats, for id: ObjectID, authoredAt: Int64) {
    let month = Self.month(of: authoredAt)
    months[month, default: [:]][id] = stats
    pending[month, default: []].append(
      [id.hex, String(stats.filesChanged), String(stats.insertions), String(stats.deletions)])
  }

  /// Appends what was computed since the last flush. A cache that cannot be written only costs time.
  func flush() {
    guard let folder, !pending.isEmpty else { return }
    for (month, records) in pending { try? StateFile.append(records, to: path(month, in: folder)) }
    pending = [:]
  }

  /// Months are numbered `year * 12 + month - 1` of the UTC author time.
  static func month(of seconds: Int64) -> Int {
    var time = time_t(clamping: seconds)
    var parts = tm()
    guard gmtime_r(&time, &parts) != nil else { return 0 }
    return (Int(parts.tm_year) + 1900) * 12 + Int(parts.tm_mon)
  }

  private func path(_ month: Int, in folder: String) -> String {
    let year = month / 12
    let number = month % 12 + 1
    return folder + "/\(year)-\(number < 10 ? "0" : "")\(number).tsv"
  }

  private func load(_ month: Int) -> [ObjectID: DiffStats] {
    guard let folder else { return [:] }
    var entries: [ObjectID: DiffStats] = [:]
    StateFile.read(path(month, in: folder)) { record in
      if record.count == 4, let id = record.objectID(0), let files = record.integer(1),
        let insertions = record.integer(2), let deletions = record.integer(3)
      {
        entries[id] = DiffStats(filesChanged: Int(files), insertions: Int(insertions), deletions: Int(deletions))
      }
      return true
    }
    return entries
  }
}
