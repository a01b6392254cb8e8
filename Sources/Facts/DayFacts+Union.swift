import GitReader

extension DayFacts {
  /// The day as every machine recorded it: each commit once by id, projects joined by name. A pure function of
  /// its input set, so that two machines given the same records render the same bytes: machines are taken in
  /// the order of their names; a commit recorded by several (the same repository cloned on each) is taken as
  /// the first of them recorded it, under that machine's project name. A project is private when any machine
  /// keeps it private, or keeps any of its commits in a private project: the model then gets no subject of it.
  ///
  /// `forgotten`: by machine, the commits it erased from its own records (`repos remove --forget`); they are
  /// left out of every other machine's records too, so that one forget is enough however many machines
  /// recorded them. A machine's own records are its present word and are not filtered by its own list.
  ///
  /// A commit taken from a machine that recorded it without a branch (its gitjournal predates branch names, or
  /// the branch was gone when it read the commit) gets the branch the first other machine recorded.
  ///
  /// `own`: the machine that renders, when it has a record here. Another machine's files are its word about its
  /// own work only: this machine's record is taken first, so that its commits keep their subjects, counts and
  /// branches whatever the others say of them. Another machine's forgotten list hides commits of this machine's
  /// record only in the projects it names in `forgottenProjects` (the projects it forgot, by name): a list that
  /// names every commit of this machine hides none of its other projects.
  public static func union(
    of day: Day, records: [(host: String, facts: DayFacts)], forgotten: [String: Set<ObjectID>] = [:],
    forgottenProjects: [String: Set<String>] = [:], own: String? = nil
  ) -> DayFacts {
    let ordered = records.filter { $0.facts.day == day }.sorted {
      $0.host == own ? $1.host != own : $1.host == own ? false : $0.host < $1.host
    }
    if ordered.count == 1 && forgotten.isEmpty { return ordered[0].facts }
    var seen = Set<ObjectID>()
    var privateCommits = Set<ObjectID>()
    var privateNames = Set<String>()
    for record in ordered {
      for project in record.facts.projects where project.isPrivate {
        privateNames.insert(project.name)
        privateCommits.formUnion(project.commits.map(\.id))
      }
    }
    var branches: [ObjectID: String] = [:]
    for record in ordered {
      for project in record.facts.projects {
        for commit in project.commits where commit.branch != nil && branches[commit.id] == nil {
          branches[commit.id] = commit.branch
        }
      }
    }
    var order: [String] = []
    var byName: [String: (path: String, commits: [CommitRecord])] = [:]
    for record in ordered {
      let others = forgotten.filter { $0.key != record.host }
      let hidden = others.values.reduce(into: Set<ObjectID>()) { $0.formUnion($1) }
      for project in record.facts.projects {
        // This machine's own project: only the lists of the machines that forgot a project of that name apply.
        let projectHidden =
          record.host != own
          ? hidden
          : others.filter { forgottenProjects[$0.key]?.contains(project.name) == true }.values.reduce(
            into: Set<ObjectID>()
          ) { $0.formUnion($1) }
        var commits = project.commits.filter { !projectHidden.contains($0.id) && seen.insert($0.id).inserted }
        guard !commits.isEmpty else { continue }
        if !branches.isEmpty {
          for index in commits.indices where commits[index].branch == nil {
            commits[index].branch = branches[commits[index].id]
          }
        }
        if byName[project.name] == nil {
          order.append(project.name)
          byName[project.name] = (project.path, [])
        }
        byName[project.name]?.commits += commits
      }
    }
    let projects = order.compactMap { name -> ProjectFacts? in
      guard let entry = byName[name] else { return nil }
      let isPrivate = privateNames.contains(name) || entry.commits.contains { privateCommits.contains($0.id) }
      return ProjectFacts(name: name, path: entry.path, isPrivate: isPrivate, commits: entry.commits)
    }
    return DayFacts(day: day, projects: projects)
  }
}
