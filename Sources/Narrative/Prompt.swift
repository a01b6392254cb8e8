import Facts
import GitReader
import Support

/// What the model is asked: what the day's commits say, in a few plain sentences (how many, in which projects and
/// which of them took most, what kinds of work they were, their subjects), what to say that the list under the
/// sentence does not (the day's main thread and the kinds of work, not the subjects again), and one question at the
/// end. No example answer: a small model copies one, and the copy of a list is the list again.
///
/// A small model answers the last line it reads, echoes `Key: value` lines and lists back, and garbles numbers
/// (scripts/evaluate-sentences.sh). So the facts are prose, the question comes last, and the only numbers are
/// counts (so a sentence may state them): no line counts, date or times, which the factual line under the sentence
/// states exactly. The kinds of work are computed in code (`WorkKind`); their words are facts the guard allows. A
/// private project gives its name and count, never its subjects nor their kinds.
///
/// `Today I committed 5 times in 2 projects, most of them in notes-app. notes-app had 3 commits (2 fixes, 1
/// feature): "Fix the sync crash"; "Add export"; "Fix the export". site had 1 commit (1 docs change): "Document
/// the footer". I also committed once to billing, a private project.`, a blank line, the instruction, a blank line
/// and the question.
public struct Prompt: Sendable, Equatable {
  /// Bump whenever the wording changes: cached sentences made from an older prompt are then not reused.
  public static let version = 4

  /// The user message's last line. The guard strips an answer that starts by repeating it.
  static let question = "In one sentence, what did I work on today?"

  /// What to say, before the question: what the list of commits under the sentence does not show.
  static let instruction = """
    Say what the day was mainly about and what kind of work it was, in your own words. Do not list the commits.
    """

  /// Subjects listed per project; a day with more (a big import, a long rebase) is not worth a longer prompt.
  static let maximumSubjects = 20

  public let system: String
  public let user: String
  /// The user message's facts and instruction, without the question.
  let facts: String
  /// The user message's last line: `question`, or a period's (`Prompt(period:)`).
  let asked: String

  /// Dates and times are left out of the prompt (since version 2), so the facts alone make it.
  public init(facts: DayFacts) {
    system = """
      You keep a developer's diary. Reply with one short sentence in the past tense that starts with "I" and \
      says what I did. Use only the facts given.
      """
    var sentences = [Self.lead(facts)]
    let shown = Self.ranked(facts.projects.filter { !$0.isPrivate })
    for project in shown {
      var subjects = project.commits.prefix(Self.maximumSubjects).map { "\"\($0.subject)\"" }.joined(separator: "; ")
      if project.commits.count > Self.maximumSubjects { subjects += " and more" }
      let commits = project.commitCount == 1 ? "1 commit" : "\(project.commitCount) commits"
      let kinds = project.kinds
      sentences.append("\(project.name) had \(commits)\(kinds.isTelling ? " (\(kinds.line))" : ""): \(subjects).")
    }
    for project in facts.projects where project.isPrivate {
      let lead =
        shown.isEmpty && project == facts.projects.first(where: \.isPrivate) ? "I committed" : "I also committed"
      sentences.append("\(lead) \(Self.times(project)) to \(project.name), a private project.")
    }
    self.facts = sentences.joined(separator: " ") + "\n\n" + Self.instruction
    asked = Self.question
    user = self.facts + "\n\n" + asked
  }

  /// `Today I committed 5 times in 2 projects, most of them in notes-app.`, `Today I committed 6 times in 3
  /// projects, the most in billing.`, `Today I committed twice.`: which project took most of the day, when one did.
  static func lead(_ facts: DayFacts) -> String {
    var text = "Today I committed \(times(facts.commitCount))"
    guard facts.projectCount > 1 else { return text + "." }
    text += " in \(facts.projectCount) projects"
    let ranked = Self.ranked(facts.projects)
    if ranked[0].commitCount > ranked[1].commitCount {
      text += ranked[0].commitCount * 2 > facts.commitCount ? ", most of them in " : ", the most in "
      text += ranked[0].name
    }
    return text + "."
  }

  /// Most commits first, equals by name.
  static func ranked(_ projects: [ProjectFacts]) -> [ProjectFacts] {
    projects.sorted { $0.commitCount != $1.commitCount ? $0.commitCount > $1.commitCount : $0.name < $1.name }
  }

  /// "once", "twice", "3 times".
  static func times(_ project: ProjectFacts) -> String { times(project.commitCount) }

  init(system: String, facts: String, question: String) {
    self.init(system: system, user: facts + "\n\n" + question, facts: facts, asked: question)
  }

  private init(system: String, user: String, facts: String, asked: String) {
    self.system = system
    self.user = user
    self.facts = facts
    self.asked = asked
  }

  /// The question asked again after the guard rejected an answer for `reason`.
  func retrying(after reason: String) -> Prompt {
    Prompt(
      system: system,
      user: facts + "\n\nMy last answer was rejected: it \(reason). Use only words from these facts.\n\n" + asked,
      facts: facts, asked: asked)
  }
}
