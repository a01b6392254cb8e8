/// Author times of recent commits, for the hook to tell which journal days a commit or a rebase touched.
extension Repository {
  /// The author time of one commit, as recorded (no mailmap).
  package func authorTime(of id: ObjectID) throws(GitError) -> Int64 {
    try commit(id).author(mailmap: nil).time
  }

  /// The author email of one commit, after the repository's mailmap: whose commit it counts as.
  package func authorEmail(of id: ObjectID) throws(GitError) -> String {
    try commit(id).author(mailmap: mailmap()).email
  }

  /// The author times of the commits reachable from `tip` that were committed at or after `since`, newest
  /// first: the commits a rebase that just ended rewrote.
  package func authorTimes(committedSince since: Int64, from tip: ObjectID) throws(GitError) -> [Int64] {
    let walk = try HistoryWalk(repository: self, tips: [tip], stopBefore: since)
    var times: [Int64] = []
    while let commit = try walk.next(), commit.committerTime >= since {
      times.append(commit.author(mailmap: nil).time)
    }
    return times
  }
}
