extension DayFacts {
  /// These facts, read from the repositories now, together with what an earlier record of the same day holds
  /// of repositories that were not read now (gone, unreadable, retired or no longer configured): the journal
  /// keeps what it recorded. A carried commit that was read again now, under any project, is not counted twice;
  /// a carried project whose name is also read now joins that project.
  ///
  /// `readPaths`: the repositories whose commits were read now, so whose part of `recorded` is replaced.
  public func keeping(
    _ recorded: DayFacts?, readPaths: Set<String>
  ) -> (facts: DayFacts, carried: [ProjectFacts]) {
    guard let recorded, recorded.day == day else { return (self, []) }
    // The usual case: every recorded project was read again, so nothing is carried and nothing need be compared.
    guard recorded.projects.contains(where: { !readPaths.contains($0.path) }) else { return (self, []) }
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
