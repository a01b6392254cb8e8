import GitReader
import Support

/// The commits a machine erased from its records with `repos remove --forget`, kept beside its records as
/// `forgotten.tsv` so that the other machines' records of them are not shown either (see `DayFacts.union`).
///
/// One `StateFile`: `forgotten <format>`, one `commit <id>` per commit, then `end`. A file without its `end`
/// line, or of another format, lists nothing.
enum ForgottenCommits {
  static let fileName = "forgotten.tsv"
  static let format: Int64 = 1

  static func bytes(of ids: Set<ObjectID>) -> [UInt8] {
    let records = [["forgotten", String(format)]] + ids.map(\.hex).sorted().map { ["commit", $0] } + [["end"]]
    return StateFile.bytes(of: records)
  }

  /// The ids in the file at `path`; none when it is missing, cut short or foreign.
  static func read(_ path: String) -> Set<ObjectID> {
    var ids = Set<ObjectID>()
    var isHeaderRead = false
    var isComplete = false
    StateFile.read(path) { record in
      switch (record.text(0), isHeaderRead) {
      case ("forgotten", false) where record.count == 2 && record.integer(1) == format:
        isHeaderRead = true
      case ("commit", true) where record.count == 2:
        guard let id = record.objectID(1) else { return false }
        ids.insert(id)
      case ("end", true):
        isComplete = true
        return false
      default:
        return false
      }
      return true
    }
    return isComplete ? ids : []
  }
}
