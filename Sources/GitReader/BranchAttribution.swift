/// Names the local branch each commit of a walk was made on, from the branches as they are now: a commit made on
/// a feature branch sits on that branch's first-parent line, between its tip and the point where the line meets
/// the default branch's; merging the branch brings it into the default branch through a merge's second parent,
/// which leaves that line as it was.
///
/// - A commit on the default branch's first-parent line gets no name, even when another branch reaches it too:
///   the default branch's own commits, a fast-forward merge's, and the history every branch forked from.
/// - Otherwise it gets the branch whose first-parent line reaches it in the fewest steps; ties go to the name
///   that sorts first, so the choice never depends on the order of the references.
/// - A commit that no branch's first-parent line reaches gets no name: the branch it was made on was deleted
///   after its merge, or only a merge brings the commit into a branch, or it was made on a detached HEAD.
///
/// A new commit is the tip of the branch checked out, so the hook names exactly that branch (nothing on the
/// default branch or a detached HEAD). Only the walked commits are looked at: the lines stop where the walk did.
enum BranchAttribution {
  /// The name of each walked commit that gets one; the empty name (which no branch can have) marks a commit of
  /// the default branch's line, which gets none. `firstParent` is nil for a commit the walk did not read, else
  /// its first parent (nil for a root commit). `defaultLine` holds the tips whose first-parent lines are the
  /// default branch's (its local branch and its remote-tracking one); `defaultBranch` is its name. `walked`, the
  /// number of commits read, sizes the table once.
  static func names(
    branches: [BranchTip], defaultBranch: String?, defaultLine: [ObjectID], walked: Int = 0,
    firstParent: (ObjectID) -> ObjectID??
  ) -> [ObjectID: String] {
    var frontier = branches.filter { $0.name != defaultBranch }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    // A repository with the default branch only, as most hooks see it, names nothing.
    guard !frontier.isEmpty else { return [:] }
    // One table for both, so that each step of a line costs one lookup to know whether the commit is taken.
    var names: [ObjectID: String] = [:]
    names.reserveCapacity(walked)
    for start in defaultLine {
      var next: ObjectID? = start
      while let id = next, names[id] == nil, case .some(let parent) = firstParent(id) {
        names[id] = ""
        next = parent
      }
    }
    // All lines advance one step at a time, so the first to reach a commit is the nearest; within a step they go
    // in the order of their names, which the next step keeps. A line that reaches a taken commit stops: below
    // it, the line that took it is as near and sorts first, or it is the default branch's.
    while !frontier.isEmpty {
      var next: [BranchTip] = []
      next.reserveCapacity(frontier.count)
      for (name, id) in frontier {
        guard names[id] == nil, case .some(let parent) = firstParent(id) else { continue }
        names[id] = name
        if let parent { next.append((name, parent)) }
      }
      frontier = next
    }
    return names
  }
}
