import Support

/// The trees and blobs of the last diff a worker made, kept for its next one.
///
/// A rebuild diffs commits newest first, so a commit's diff usually comes right after its child's, and reads
/// again the trees and blobs that diff read as the old side. libgit2's object cache evicts at random once full,
/// so only a large cache would keep them; this keeps exactly one diff's objects, up to `byteLimit`.
final class RecentObjects {
  static let byteLimit = 512 << 10

  private var previous: [ObjectID: AnyObject] = [:]
  private var current: [ObjectID: AnyObject] = [:]
  private var currentBytes = 0

  /// Starts a new diff: what the last one read stays available to it, older objects are let go.
  func startDiff() {
    previous = current
    current = [:]
    currentBytes = 0
  }

  /// The object `id` from this diff or the last one, else `load()`'s, remembered for the next diff.
  func object<T: AnyObject>(_ id: ObjectID, size: (T) -> Int, load: () throws(GitError) -> T) throws(GitError) -> T {
    if let found = current[id] as? T { return found }
    let object: T
    if let kept = previous[id] as? T { object = kept } else { object = try load() }
    let bytes = size(object)
    if currentBytes + bytes <= Self.byteLimit {
      current[id] = object
      currentBytes += bytes
    }
    return object
  }
}
