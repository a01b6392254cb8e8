import GitReader

extension DayFacts {
  /// These facts, read from the repositories now, together with what an earlier record of the same day holds
  /// of repositories that were not read now (gone, unreadable, retired or no longer configured): the journal
  /// keeps what it recorded. A carried commit that was read again now, under any project, is not counted twice;
  /// a carried project whose name is also read now joins that project.
  ///
  /// A commit read again keeps the branch it was recorded with (see `namingBranches(as:)`).
  ///
  /// `readPaths`: the repositories whose commits were read now, so whose part of `recorded` is replaced.
  public func keeping(
    _ recorded: DayFacts?, readPaths: Set<String>
  ) -> (facts: DayFacts, carried: [ProjectFacts]) {
    guard let recorded, recorded.day == day else { return (self, []) }
    // A record that holds exactly these facts (a second rebuild's, most days) names no other branch and keeps no
    // other repository: compared first, and at once when both are the same copy.
    if recorded == self { return (self, []) }
    let read = namingBranches(as: recorded)
    // The usual case: every recorded project was read again, so nothing is carried and nothing need be compared.
    guard recorded.projects.contains(where: { !readPaths.contains($0.path) }) else { return (read, []) }
    return read.carrying(recorded, readPaths: readPaths)
  }

  /// These facts with each commit that `recorded` holds with a branch under that branch. The name was given when
  /// the commit was new (the hook names the branch checked out); the branches as they are now may no longer
  /// show it (the branch was merged and deleted, renamed, or merged by a fast-forward), and the journal keeps
  /// what it recorded. A commit is looked for in the recorded project of its repository, else in recorded
  /// projects of repositories not read now.
  func namingBranches(as recorded: DayFacts) -> DayFacts {
    guard recorded.projects.contains(where: { $0.commits.contains { $0.branch != nil } }) else { return self }
    var elsewhere: [ObjectID: String] = [:]
    // A day has a few projects: compared one by one, not hashed.
    for project in recorded.projects where !projects.contains(where: { $0.path == project.path }) {
      for commit in project.commits { if let branch = commit.branch { elsewhere[commit.id] = branch } }
    }
    var isChanged = false
    let named = projects.map { project -> ProjectFacts in
      let same = recorded.projects.first { $0.path == project.path }?.commits ?? []
      guard !same.isEmpty || !elsewhere.isEmpty else { return project }
      // Both lists are ordered by author time: one pass over each, no table, and no copy of a commit unless its
      // name changes. Commits of one second are looked for among the recorded ones of that second.
      let read = project.commits
      var commits: [CommitRecord]?
      var next = 0
      for index in read.indices {
        let (time, id) = (read[index].authoredAt, read[index].id)
        while next < same.count, same[next].authoredAt < time { next += 1 }
        var match = next
        while match < same.count, same[match].authoredAt == time, same[match].id != id { match += 1 }
        let branch =
          match < same.count && same[match].id == id
          ? same[match].branch : (elsewhere.isEmpty ? nil : elsewhere[id])
        if let branch, branch != read[index].branch {
          if commits == nil { commits = read }
          commits?[index].branch = branch
        }
      }
      guard let commits else { return project }
      isChanged = true
      return ProjectFacts(name: project.name, path: project.path, isPrivate: project.isPrivate, commits: commits)
    }
    return isChanged ? DayFacts(day: day, projects: named) : self
  }

  private func carrying(
    _ recorded: DayFacts, readPaths: Set<String>
  ) -> (facts: DayFacts, carried: [ProjectFacts]) {
    var seen = Set(projects.flatMap { $0.commits.map(\.id) })
    var carried: [ProjectFacts] = []
    for project in recorded.projects where !readPaths.contains(project.path) {
      let commits = project.commits.filter { seen.insert($0.id).inserted }
      guard !commits.isEmpty else { continue }
      carried.append(
        ProjectFacts(name: project.name, path: project.path, isPrivate: project.isPrivate, commits: commits))
    }
    guard !carried.isEmpty else { return (self, []) }
    var byName: [String: ProjectFacts] = [:]
    for project in projects + carried {
      if let present = byName[project.name] {
        byName[project.name] = ProjectFacts(
          name: present.name, path: present.path, isPrivate: present.isPrivate || project.isPrivate,
          commits: present.commits + project.commits)
      } else {
        byName[project.name] = project
      }
    }
    return (DayFacts(day: day, projects: Array(byName.values)), carried)
  }
}
