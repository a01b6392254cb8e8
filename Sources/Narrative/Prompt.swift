import Facts
import GitReader
import Support

/// What the model is asked: what the day's commits say, in a few plain sentences, and one question at the end.
///
/// Tuned on SmolLM2-135M-Instruct (scripts/evaluate-sentences.sh, BENCHMARKS.md): a small model answers the last
/// line it reads, echoes `Key: value` lines and lists back, and garbles numbers. So the facts are prose, the
/// question comes last, and the only numbers are the commit counts (so a sentence may state them): no line
/// counts, date or times, which the factual line under the sentence states exactly. A private project gives its
/// name and count, never its subjects.
///
/// `In notes-app I committed twice: "Fix the sync crash"; "Add export". I also committed 3 times to billing, a
/// private project.` then a blank line and the question.
public struct Prompt: Sendable, Equatable {
  /// Bump whenever the wording changes: cached sentences made from an older prompt are then not reused.
  public static let version = 2

  /// The user message's last line. The guard strips an answer that starts by repeating it.
  static let question = "In one sentence, what did I work on today?"

  /// Subjects listed per project; a day with more (a big import, a long rebase) is not worth a longer prompt.
  static let maximumSubjects = 20

  public let system: String
  public let user: String

  /// `calendar` is not read since version 2, which leaves dates and times out of the prompt.
  public init(facts: DayFacts, calendar: JournalCalendar) {
    system = """
      You keep a developer's diary. Reply with one short sentence in the past tense that starts with "I" and \
      says what I did. Use only the facts given.
      """
    // "Twice" rather than "(2 commits)": a small model copies a parenthesis into its answer.
    func times(_ project: ProjectFacts) -> String {
      switch project.commitCount {
      case 1: return "once"
      case 2: return "twice"
      case let count: return "\(count) times"
      }
    }
    var sentences: [String] = []
    for project in facts.projects where !project.isPrivate {
      var subjects = project.commits.prefix(Self.maximumSubjects).map { "\"\($0.subject)\"" }.joined(separator: "; ")
      if project.commits.count > Self.maximumSubjects { subjects += " and more" }
      sentences.append("In \(project.name) I committed \(times(project)): \(subjects).")
    }
    for project in facts.projects where project.isPrivate {
      let lead = sentences.isEmpty ? "I committed" : "I also committed"
      sentences.append("\(lead) \(times(project)) to \(project.name), a private project.")
    }
    user = sentences.joined(separator: " ") + "\n\n" + Self.question
  }
}
