import Facts

extension Grounding {
  /// What a week's or a month's sentence may say: the projects' names, the subjects its prompt showed, the prompt's
  /// own words about the period ("this week", the busiest day's name), and its numbers in their roles (commits, days
  /// with commits, days of the period, projects).
  init(period: PeriodFacts) {
    let projects = Prompt.projects(of: period).map { project in
      (
        name: project.name, isPrivate: project.isPrivate, count: project.commitCount, days: project.activeDays,
        subjects: project.subjects + (project.kinds.isEmpty ? [] : [project.kinds])
      )
    }
    self.init(
      projects: projects, framing: Prompt.periodFraming(period), commitCount: period.facts.commitCount,
      dayCounts: [period.facts.activeDays.count, period.facts.days.count])
  }
}
