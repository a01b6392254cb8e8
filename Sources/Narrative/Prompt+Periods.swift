import Facts
import GitReader
import Support

/// What the model is asked about a week or a month: the numbers its page states, computed in code (commits, days
/// with commits, projects; per project its commits, days and kinds of work), some subjects of each project, what to
/// say that the page's list does not, and the question last. Built like the day's prompt: prose, no line counts,
/// dates or times, a private project by name and counts only, and no example answer to copy.
///
/// `This week I committed 14 times on 4 of 7 days, in 2 projects. In notes-app I committed 11 times on 3 days (6
/// fixes, 2 features): "Fix the sync crash"; "Add export". I also committed 3 times on 2 days to billing, a private
/// project. My busiest day was Tuesday.`, a blank line, the instruction, a blank line and the question.
extension Prompt {
  /// Bump whenever the wording of a period's prompt changes: cached sentences made from an older one are not reused.
  public static let periodVersion = 2

  static let weekQuestion = "In one sentence, what did I work on this week?"
  static let monthQuestion = "In one sentence, what did I work on this month?"

  /// Subjects shown per project: a week of 60 commits is not worth a prompt 60 subjects long. They are spread over
  /// the period, so a month's are not all from its first days.
  static let periodSubjects = 6

  /// One project's part of a period, as the prompt and the guard see it.
  struct PeriodProject: Equatable {
    let name: String
    /// Private on any day of the period: the whole period gives only its name and counts.
    let isPrivate: Bool
    let commitCount: Int
    let activeDays: Int
    /// The subjects shown (none for a private project), oldest first, each once.
    let subjects: [String]
    /// More subjects than those shown.
    let hasMore: Bool
    /// Its commits by kind of work, `2 fixes, 1 feature`; empty for a private project.
    let kinds: String
  }

  public init(period: PeriodFacts) {
    let unit = period.period.unit
    let projects = Self.projects(of: period)
    var sentences = [Self.lead(period)]
    for project in projects where !project.isPrivate {
      var subjects = project.subjects.map { "\"\($0)\"" }.joined(separator: "; ")
      if project.hasMore { subjects += " and more" }
      let kinds = project.kinds.isEmpty ? "" : " (\(project.kinds))"
      sentences.append(
        "In \(project.name) I committed \(Self.times(project.commitCount)) on \(Self.days(project))\(kinds): "
          + "\(subjects).")
    }
    sentences += Self.privateSentences(projects)
    if let busiest = Self.busiestDay(period) { sentences.append("My busiest day was \(busiest).") }
    self.init(
      system: """
        You keep a developer's diary. Reply with one short sentence in the past tense that says what I did this \
        \(unit). Use only the facts given.
        """,
      facts: sentences.joined(separator: " ") + "\n\n" + Self.periodInstruction(unit),
      question: unit == "week" ? Self.weekQuestion : Self.monthQuestion)
  }

  /// The prompt's facts without any subject: the words a sentence may use about the period itself (its unit, the
  /// busiest day's name) besides the projects' names and subjects.
  static func periodFraming(_ period: PeriodFacts) -> String {
    var sentences = [lead(period)] + privateSentences(projects(of: period))
    if let busiest = busiestDay(period) { sentences.append("My busiest day was \(busiest).") }
    return sentences.joined(separator: " ")
  }

  /// `This week I committed 14 times on 4 of 7 days, in 2 projects.`
  private static func lead(_ period: PeriodFacts) -> String {
    let facts = period.facts
    var text = "This \(period.period.unit) I committed \(times(facts.commitCount)) on \(facts.activeDays.count) of "
    text += "\(facts.days.count) days"
    if facts.projectCount > 1 { text += ", in \(facts.projectCount) projects" }
    return text + "."
  }

  private static func privateSentences(_ projects: [PeriodProject]) -> [String] {
    let hasPublic = projects.contains { !$0.isPrivate }
    return projects.filter(\.isPrivate).enumerated().map { index, project in
      let lead = hasPublic || index > 0 ? "I also committed" : "I committed"
      return "\(lead) \(times(project.commitCount)) on \(days(project)) to \(project.name), a private project."
    }
  }

  /// The weekday of a week's busiest day, when more than one day had commits: a month's would need its date.
  private static func busiestDay(_ period: PeriodFacts) -> String? {
    guard case .week = period.period, period.facts.activeDays.count > 1, let busiest = period.facts.busiestDay else {
      return nil
    }
    return busiest.day.weekday.description
  }

  /// What to say, before the question: what the page's lists do not show.
  static func periodInstruction(_ unit: String) -> String {
    "Say what the \(unit) was mainly about and what kind of work it was, in your own words. Do not list the commits."
  }

  /// The period's projects by name, with what the prompt shows of each.
  static func projects(of period: PeriodFacts) -> [PeriodProject] {
    var order: [String] = []
    var isPrivate: [String: Bool] = [:]
    var subjects: [String: [String]] = [:]
    var counts: [String: Int] = [:]
    var days: [String: Int] = [:]
    var kinds: [String: KindCounts] = [:]
    for day in period.facts.days {
      for project in day.projects {
        if counts[project.name] == nil { order.append(project.name) }
        isPrivate[project.name] = (isPrivate[project.name] ?? false) || project.isPrivate
        counts[project.name, default: 0] += project.commitCount
        days[project.name, default: 0] += 1
        subjects[project.name, default: []] += project.commits.map(\.subject)
        kinds[project.name, default: KindCounts()].add(project.kinds)
      }
    }
    return order.sorted().map { name in
      let hidden = isPrivate[name] ?? false
      var seen: Set<String> = []
      let distinct = hidden ? [] : (subjects[name] ?? []).filter { seen.insert($0).inserted }
      let shown = spread(distinct, count: periodSubjects)
      return PeriodProject(
        name: name, isPrivate: hidden, commitCount: counts[name] ?? 0, activeDays: days[name] ?? 0, subjects: shown,
        hasMore: shown.count < distinct.count,
        kinds: hidden || !(kinds[name]?.isTelling ?? false) ? "" : (kinds[name] ?? KindCounts()).line)
    }
  }

  /// At most `count` of `items`, the first and the last among them, the others evenly between.
  static func spread<T>(_ items: [T], count: Int) -> [T] {
    guard items.count > count, count > 1 else { return Array(items.prefix(count)) }
    return (0..<count).map { items[$0 * (items.count - 1) / (count - 1)] }
  }

  /// "on 1 day", "on 3 days".
  private static func days(_ project: PeriodProject) -> String {
    project.activeDays == 1 ? "1 day" : "\(project.activeDays) days"
  }

  /// "once", "twice", "3 times".
  static func times(_ count: Int) -> String {
    switch count {
    case 1: return "once"
    case 2: return "twice"
    default: return "\(count) times"
    }
  }
}
