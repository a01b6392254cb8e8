import GitReader
import Support

/// The commits a machine erased from its records with `repos remove --forget`, kept beside its records as
/// `forgotten.tsv` so that the other machines' records of them are not shown either (see `DayFacts.union`).
///
/// One `StateFile`: `forgotten <format>`, one `commit <id>` per commit, then `end`; after `end`, one
/// `project <name>` per project forgotten. A file without its `end` line, or of another format, lists nothing.
/// The projects come after `end` so that a gitjournal that predates them, which stops at `end`, still reads the
/// commits; a list without projects (written by one) hides no commit of the reading machine's own records.
enum ForgottenCommits {
  static let fileName = "forgotten.tsv"
  static let format: Int64 = 1
  /// The most bytes of the file read: 300,000 commits fit; a larger file, which no machine writes, lists nothing.
  static let largestFile = 16 << 20

  /// What one machine forgot.
  struct List: Equatable {
    var ids: Set<ObjectID> = []
    /// The names of the projects the commits were forgotten with.
    var projects: Set<String> = []
  }

  static func bytes(of list: List) -> [UInt8] {
    let records =
      [["forgotten", String(format)]] + list.ids.map(\.hex).sorted().map { ["commit", $0] } + [["end"]]
      + list.projects.sorted().map { ["project", $0] }
    return StateFile.bytes(of: records)
  }

  /// The ids in the file at `path`; none when it is missing, cut short or foreign.
  static func read(_ path: String) -> Set<ObjectID> { readList(path).ids }

  /// The ids and projects in the file at `path`; none when it is missing, cut short, foreign, a symlink or larger
  /// than `largestFile`.
  static func readList(_ path: String) -> List {
    guard let contents = (try? AtomicFile.readOwnFile(path, largest: largestFile)) ?? nil else { return List() }
    var list = List()
    var isHeaderRead = false
    var isComplete = false
    StateFile.read(bytes: contents.bytes) { record in
      switch (record.text(0), isHeaderRead, isComplete) {
      case ("forgotten", false, false) where record.count == 2 && record.integer(1) == format:
        isHeaderRead = true
      case ("commit", true, false) where record.count == 2:
        guard let id = record.objectID(1) else { return false }
        list.ids.insert(id)
      case ("end", true, false):
        isComplete = true
      case ("project", true, true) where record.count == 2:
        list.projects.insert(record.text(1))
      default:
        return false
      }
      return true
    }
    return isComplete ? list : List()
  }
}
