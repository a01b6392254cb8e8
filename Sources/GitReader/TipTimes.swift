import Support

/// The committer times of a repository's branch tips, kept beside its line statistics
/// (`stats-v2/<repository>/tips.tsv`, a `StateFile` of `<id> <time>` records). A repository with thousands of
/// branches would otherwise have every tip commit read on every commit's hook, only to learn that they are old.
final class TipTimes {
  private let path: String?
  private var known: [ObjectID: Int64] = [:]
  private var isChanged = false

  /// `folder` nil keeps nothing between runs.
  init(folder: String?) {
    path = folder.map { $0 + "/tips.tsv" }
    guard let path else { return }
    StateFile.read(path) { record in
      if record.count == 2, let id = record.objectID(0), let time = record.integer(1) { known[id] = time }
      return true
    }
  }

  func time(of id: ObjectID) -> Int64? { known[id] }

  func record(_ id: ObjectID, time: Int64) {
    known[id] = time
    isChanged = true
  }

  /// Rewrites the file with `tips` only, so branches that moved or were deleted drop out. Nothing is written
  /// when no tip was new.
  func save(keeping tips: [ObjectID]) {
    guard isChanged, let path else { return }
    try? StateFile.write(tips.compactMap { tip in known[tip].map { [tip.hex, String($0)] } }, to: path, isCache: true)
  }
}
