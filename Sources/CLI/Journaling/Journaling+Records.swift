import Facts
import GitReader
import Journal

/// What the journal recorded (every machine's day records), and `repos remove --forget`, which erases a
/// repository's commits from this machine's records.
extension Journaling {
  /// The week and month pages of `days` that are on, each once: the weeks newest first, then the months.
  func periods(of days: [Day]) -> [PeriodFacts.Period] {
    let periods = Set(days.flatMap(writer.periods(containing:))).sorted(by: >)
    return periods.filter { if case .week = $0 { true } else { false } }
      + periods.filter { if case .month = $0 { true } else { false } }
  }

  /// A week's or a month's facts as the journal last recorded its days, every machine's.
  func recorded(_ period: PeriodFacts.Period) async throws -> PeriodFacts {
    try await store.locked { locked in writer.periodFacts(of: period, in: locked) }
  }

  /// Erases every commit of the repository at `path` from this machine's day records, lists them as forgotten
  /// so that no other machine's records of them are shown either, and rewrites those days' files; returns the
  /// days that changed. The user's text in the files is kept.
  func forget(path: String) async throws -> [Day] {
    try await store.locked { locked in
      var changed: [(day: Day, facts: DayFacts)] = []
      var forgotten = Set<ObjectID>()
      var names = Set<String>()
      for day in locked.recordedDays() {
        guard let recorded = locked.record(of: day), recorded.projects.contains(where: { $0.path == path }) else {
          continue
        }
        for project in recorded.projects where project.path == path {
          forgotten.formUnion(project.commits.map(\.id))
          names.insert(project.name)
        }
        changed.append((day, DayFacts(day: day, projects: recorded.projects.filter { $0.path != path })))
      }
      // Listed first: the days rendered next leave them out of every machine's records.
      try locked.forget(forgotten, projects: names)
      for (_, facts) in changed {
        try writer.write(
          facts, sentence: { sentence(for: $0, sharing: true) }, periodSentence: { sentence(for: $0, sharing: true) },
          in: locked)
      }
      return changed.map(\.day)
    }
  }

  /// The facts the journal last recorded for `day`, every machine's, or nil.
  func recorded(_ day: Day) async throws -> DayFacts? {
    try await store.locked { locked in locked.recordedFacts(of: day) }
  }
}
