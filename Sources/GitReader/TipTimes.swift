import Foundation
import Support

/// The committer times of a repository's branch tips, kept beside its line statistics
/// (`stats-v1/<repository>/tips.tsv`). A repository with thousands of branches would otherwise have every
/// tip commit read on every commit's hook, only to learn that they are old.
final class TipTimes {
  private let path: String?
  private var known: [ObjectID: Int64] = [:]
  private var isChanged = false

  /// `folder` nil keeps nothing between runs.
  init(folder: String?) {
    path = folder.map { $0 + "/tips.tsv" }
    guard let path else { return }
    RecordFile.forEachRecord(in: path, fields: 1) { id, numbers in known[id] = numbers[0] }
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
    var text = ""
    for tip in tips { if let time = known[tip] { text += "\(tip.hex) \(time)\n" } }
    try? makeFolders((path as NSString).deletingLastPathComponent)
    try? AtomicFile.write(text, to: path, durable: false)
  }
}
