import Facts
import GitReader
import Support

/// What the model is asked: what the day's commits say, in a few plain sentences, an example answer built from
/// those facts alone, and one question at the end.
///
/// Tuned on SmolLM2-135M-Instruct (scripts/evaluate-sentences.sh, BENCHMARKS.md): a small model answers the last
/// line it reads, echoes `Key: value` lines and lists back, and garbles numbers. So the facts are prose, the
/// question comes last, and the only numbers are the commit counts (so a sentence may state them): no line
/// counts, date or times, which the factual line under the sentence states exactly. A private project gives its
/// name and count, never its subjects. Asked only the question, the model invented a purpose or a product for
/// most days ("a new journaling platform that allows users to share their writing"); given an example sentence
/// made of the day's own words (version 3), it mostly keeps to them, and an answer it copies is true.
///
/// `In notes-app I committed twice: "Fix the sync crash"; "Add export". I also committed 3 times to billing, a
/// private project.`, a blank line, `For example: "I worked on notes-app (fix the sync crash, add export), and
/// committed 3 times to billing, a private project."`, a blank line and the question.
public struct Prompt: Sendable, Equatable {
  /// Bump whenever the wording changes: cached sentences made from an older prompt are then not reused.
  public static let version = 3

  /// The user message's last line. The guard strips an answer that starts by repeating it.
  static let question = "In one sentence, what did I work on today?"

  /// Subjects listed per project; a day with more (a big import, a long rebase) is not worth a longer prompt.
  static let maximumSubjects = 20

  /// Subjects per project in the example answer, which should stay one readable sentence.
  static let exampleSubjects = 3

  public let system: String
  public let user: String
  /// The user message's facts and example, without the question.
  let facts: String
  /// The user message's last line: `question`, or a period's (`Prompt(period:)`).
  let asked: String

  /// Dates and times are left out of the prompt (since version 2), so the facts alone make it.
  public init(facts: DayFacts) {
    system = """
      You keep a developer's diary. Reply with one short sentence in the past tense that starts with "I" and \
      says what I did. Use only the facts given.
      """
    var sentences: [String] = []
    for project in facts.projects where !project.isPrivate {
      var subjects = project.commits.prefix(Self.maximumSubjects).map { "\"\($0.subject)\"" }.joined(separator: "; ")
      if project.commits.count > Self.maximumSubjects { subjects += " and more" }
      sentences.append("In \(project.name) I committed \(Self.times(project)): \(subjects).")
    }
    for project in facts.projects where project.isPrivate {
      let lead = sentences.isEmpty ? "I committed" : "I also committed"
      sentences.append("\(lead) \(Self.times(project)) to \(project.name), a private project.")
    }
    self.facts = sentences.joined(separator: " ") + "\n\nFor example: \"" + Self.example(for: facts) + "\""
    asked = Self.question
    user = self.facts + "\n\n" + asked
  }

  /// A sentence made of the facts' words only: "I worked on notes-app (fix the sync crash, add export) and site
  /// (update the footer), and committed 3 times to billing, a private project."
  static func example(for facts: DayFacts) -> String {
    var text = ""
    let worked = facts.projects.filter { !$0.isPrivate }.map { project in
      let subjects = project.commits.prefix(Self.exampleSubjects).map { lowercasingFirstWord($0.subject) }
      return "\(project.name) (\(subjects.joined(separator: ", ")))"
    }
    if let last = worked.last {
      text = "I worked on " + (worked.count == 1 ? last : worked.dropLast().joined(separator: ", ") + " and " + last)
    }
    let committed = facts.projects.filter(\.isPrivate)
    if !committed.isEmpty {
      let counts = committed.map { "\(times($0)) to \($0.name)" }.joined(separator: " and ")
      let kind = committed.count == 1 ? "a private project" : "all private projects"
      text += (text.isEmpty ? "I committed " : ", and committed ") + counts + ", " + kind
    }
    return text + "."
  }

  /// "Fix the crash" becomes "fix the crash" inside a sentence; "README", "UserStore" or "WIP" stay as they are.
  static func lowercasingFirstWord(_ subject: String) -> String {
    let word = subject.prefix { $0 != " " }
    guard let first = word.first, first.isUppercase, word.dropFirst().allSatisfy({ !$0.isUppercase }) else {
      return subject
    }
    return first.lowercased() + subject.dropFirst()
  }

  /// "once", "twice", "3 times": a small model copies "(2 commits)" into its answer.
  static func times(_ project: ProjectFacts) -> String {
    switch project.commitCount {
    case 1: return "once"
    case 2: return "twice"
    case let count: return "\(count) times"
    }
  }

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
