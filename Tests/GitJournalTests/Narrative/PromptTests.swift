import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import GitReader
@testable import Journal
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
        In notes-app I committed twice: "Fix the sync crash"; "Add export". In site I committed once: "Update the \
        footer". I also committed 3 times to billing, a private project.

        For example: "I worked on notes-app (fix the sync crash, add export) and site (update the footer), and \
        committed 3 times to billing, a private project."

        In one sentence, what did I work on today?
        """)
    #expect(prompt.system.contains("one short sentence in the past tense"))
  }

  /// The example answer (version 3) is made of the facts alone: at most three subjects a project, their first
  /// word lowercased unless it is a name, private projects by count.
  @Test func theExampleIsBuiltFromTheFacts() {
    let busy = Self.project(
      "notes-app", ["Start the export", "Export: lists", "README: usage", "UserStore fix", "WIP"])
    #expect(
      Prompt.example(for: DayFacts(day: Self.day, projects: [busy]))
        == "I worked on notes-app (start the export, export: lists, README: usage).")
    let secret = [
      Self.project("billing", isPrivate: true, ["Invoice Initech", "Round"]),
      Self.project("thesis", isPrivate: true, ["Draft"]),
    ]
    #expect(
      Prompt.example(for: DayFacts(day: Self.day, projects: secret))
        == "I committed twice to billing and once to thesis, all private projects.")
    #expect(Prompt.lowercasingFirstWord("UserStore: rename") == "UserStore: rename")
    #expect(Prompt.lowercasingFirstWord("WIP") == "WIP")
    #expect(Prompt.lowercasingFirstWord("Ajoute la recherche") == "ajoute la recherche")
  }

  /// An answer that copies the example is accepted: it is the facts' own words.
  @Test(arguments: [
    SentenceGuardTests.notesApp, SentenceGuardTests.fourProjects, SentenceGuardTests.postgres,
    SentenceGuardTests.billing, SentenceGuardTests.flakyTest, SentenceGuardTests.accounts,
    SentenceGuardTests.journalingPost, GroundingTests.thesisAndBilling, GroundingTests.sortAndThesis,
    GroundingTests.french,
  ])
  func theExamplePassesTheGuard(_ projects: [SentenceGuardTests.Project]) {
    let example = Prompt.example(for: SentenceGuardTests.facts(projects))
    #expect(SentenceGuardTests.check(example, projects) == .accepted(example))
  }

  @Test func aPrivateProjectGivesItsNameAndCountOnly() {
    let prompt = Self.prompt([Self.project("billing", isPrivate: true, ["Invoice the Initech merger"])])
    #expect(prompt.user.hasPrefix("I committed once to billing, a private project."))
    #expect(!prompt.user.contains("Initech") && !prompt.user.contains("merger"))
  }

  /// No line counts, date or times (120, 45, 7 files, the 12th, 09:12): only the counts and the subjects' own
  /// numbers, so those are all a sentence may state.
  @Test func theOnlyNumbersAreCountsAndTheSubjects() {
    let user = Self.prompt([
      Self.project("api-server", ["Upgrade to Postgres 16", "Handle HTTP 429", "Release 2.4.0"])
    ]).user
    let facts = user.replacingOccurrences(of: Prompt.question, with: "")
    #expect(SentenceGuard.numbers(in: facts) == [3, 16, 429, 2, 4, 0])
  }

  @Test func aLongDayListsTwentySubjects() {
    let subjects = (1...25).map { "Step \(Character(UnicodeScalar(UInt8(96 + $0))))" }
    let user = Self.prompt([Self.project("import", subjects)]).user
    #expect(user.contains("I committed 25 times: \"Step a\";"))
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
