import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Narrative
@testable import Support

/// What the model is asked (version 2, tuned on SmolLM2-135M-Instruct; BENCHMARKS.md): prose with the question
/// last, commit counts as the only numbers, and nothing of a private project but its name and count.
struct PromptTests {
  static let calendar = JournalCalendar(timeZone: .utc)
  static let day = Day(year: 2026, month: 10, day: 12)

  static func project(_ name: String, isPrivate: Bool = false, _ subjects: [String]) -> ProjectFacts {
    let start = calendar.window(of: day).start + 9 * 3600 + 12 * 60
    let commits = subjects.enumerated().map { index, subject in
      CommitRecord(
        id: .repeating(String(index % 10)), authorName: "Me", authorEmail: "me@example.com",
        authoredAt: start + Int64(index) * 600, authorOffsetMinutes: 0, subject: subject, isMerge: false,
        stats: DiffStats(filesChanged: 7, insertions: 120 + index, deletions: 45))
    }
    return ProjectFacts(name: name, path: "/code/\(name)", isPrivate: isPrivate, commits: commits)
  }

  static func prompt(_ projects: [ProjectFacts]) -> Prompt {
    Prompt(facts: DayFacts(day: day, projects: projects))
  }

  @Test func factsAreProseAndTheQuestionComesLast() {
    let prompt = Self.prompt([
      Self.project("notes-app", ["Fix the sync crash", "Add export"]),
      Self.project("billing", isPrivate: true, ["Invoice the Initech merger", "Round totals", "Fix VAT"]),
      Self.project("site", ["Update the footer"]),
    ])
    #expect(
      prompt.user == """
        Today I committed 6 times in 3 projects, the most in billing. notes-app had 2 commits (1 feature, 1 fix): \
        "Fix the sync crash"; "Add export". site had 1 commit (1 chore): "Update the footer". I also committed 3 \
        times to billing, a private project.

        Say what the day was mainly about and what kind of work it was, in your own words. Do not list the commits.

        In one sentence, what did I work on today?
        """)
    #expect(prompt.system.contains("one short sentence in the past tense"))
  }

  /// The project with more than half the commits is named as most of the day; projects are listed most commits
  /// first; no example answer is there to copy; commits of no known kind give no kinds.
  @Test func theBusiestProjectLeadsAndNoAnswerIsGiven() {
    let user = Self.prompt([
      Self.project("api", ["Start the export", "Export: lists", "WIP"]),
      Self.project("site", ["Add a footer"]),
    ]).user
    #expect(user.hasPrefix("Today I committed 4 times in 2 projects, most of them in api. api had 3 commits: "))
    #expect(user.contains("site had 1 commit (1 feature): \"Add a footer\"."))
    #expect(!user.contains("For example") && !user.contains("I worked on"))
  }

  /// The kinds' words are facts: a sentence may say "a performance change" for `perf: cache the index` and "a docs
  /// change" for `Document the hook`, though no subject has those words. The same sentence for a day whose commits
  /// were of other kinds is rejected: the guard allows the day's own kinds only.
  @Test func theKindsWordsAreFactsTheGuardAllows() {
    let sentence = "I made a performance change and a docs change in app."
    let facts = DayFacts(
      day: Self.day, projects: [Self.project("app", ["perf: cache the index", "Document the hook"])])
    let prompt = Prompt(facts: facts)
    #expect(prompt.user.contains("(1 performance change, 1 docs change)"))
    #expect(
      SentenceGuard.check(sentence, prompt: prompt.user, grounding: Grounding(facts: facts)) == .accepted(sentence))
    let other = DayFacts(day: Self.day, projects: [Self.project("app", ["Cache the index", "Fix the hook"])])
    let verdict = SentenceGuard.check(sentence, prompt: Prompt(facts: other).user, grounding: Grounding(facts: other))
    #expect(verdict == .rejected("says what the facts do not ('performance', 'docs')"), "\(verdict)")
  }

  /// A private project's kinds are not given: they come from its subjects.
  @Test func aPrivateProjectsKindsAreNotGiven() {
    let user = Self.prompt([Self.project("billing", isPrivate: true, ["Fix VAT", "Add dunning"])]).user
    #expect(!user.contains("fix") && !user.contains("feature"))
  }

  @Test func aPrivateProjectGivesItsNameAndCountOnly() {
    let prompt = Self.prompt([Self.project("billing", isPrivate: true, ["Invoice the Initech merger"])])
    #expect(prompt.user.hasPrefix("Today I committed once. I committed once to billing, a private project."))
    #expect(!prompt.user.contains("Initech") && !prompt.user.contains("merger"))
  }

  /// No line counts, date or times (120, 45, 7 files, the 12th, 09:12): only the counts and the subjects' own
  /// numbers, so those are all a sentence may state.
  @Test func theOnlyNumbersAreCountsAndTheSubjects() {
    let user = Self.prompt([
      Self.project("api-server", ["Upgrade to Postgres 16", "Handle HTTP 429", "Release 2.4.0"])
    ]).user
    let facts = user.replacingOccurrences(of: Prompt.question, with: "")
    #expect(SentenceGuard.numbers(in: facts) == [3, 2, 1, 16, 429, 4, 0])
  }

  @Test func aLongDayListsTwentySubjects() {
    let subjects = (1...25).map { "Step \(Character(UnicodeScalar(UInt8(96 + $0))))" }
    let user = Self.prompt([Self.project("import", subjects)]).user
    #expect(user.contains("import had 25 commits: \"Step a\";"))
    #expect(user.contains("\"Step t\" and more."))
    #expect(!user.contains("Step u"))
  }

  /// What the guard accepts follows from the prompt: a count given as "twice" may be stated as 2.
  @Test func aCountFromThePromptMayBeStated() {
    let facts = DayFacts(
      day: Self.day, projects: [Self.project("app", ["Teach the parser about tabs", "Handle CRLF"])])
    let user = Prompt(facts: facts).user
    let grounding = Grounding(facts: facts)
    #expect(
      SentenceGuard.check("I made 2 commits to the parser.", prompt: user, grounding: grounding)
        == .accepted("I made 2 commits to the parser."))
    #expect(
      SentenceGuard.check("I made 3 commits to the parser.", prompt: user, grounding: grounding)
        != .accepted("I made 3 commits to the parser."))
  }
}
