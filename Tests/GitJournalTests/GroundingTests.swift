import Foundation
import Testing

@testable import Narrative

/// The grounding rule on its own: sentences SmolLM2-135M-Instruct wrote that the guard used to accept though they
/// say what the facts do not (issue 19), and sentences a good model writes from the same facts, which must stay.
/// The days are the evaluation script's (scripts/evaluate-sentences.sh).
struct GroundingTests {
  typealias Project = SentenceGuardTests.Project

  /// A sentence, the day it is about, and the words the reason must contain (nil: grounded).
  struct Case: Sendable, CustomTestStringConvertible {
    let projects: [Project]
    let sentence: String
    let reason: String?

    init(_ projects: [Project], _ sentence: String, _ reason: String?) {
      self.projects = projects
      self.sentence = sentence
      self.reason = reason
    }

    var testDescription: String { String(sentence.prefix(70)) }
  }

  static func problem(_ sentence: String, _ projects: [Project]) -> String? {
    Grounding(facts: SentenceGuardTests.facts(projects)).problem(in: sentence)
  }

  static let journalingPost = SentenceGuardTests.journalingPost
  static let accounts = SentenceGuardTests.accounts
  static let postgres = SentenceGuardTests.postgres
  static let sortAndThesis: [Project] = [
    Project("notes-app", false, ["Sort notes by last edit", "Fix a typo in the settings screen"]),
    Project("thesis", true, ["Draft the related work chapter"]),
  ]
  static let thesisAndBilling: [Project] = [
    Project("billing", true, ["Fix the tax rate for Belgium", "Test the Belgian tax rate"]),
    Project(
      "thesis", true,
      [
        "Methods chapter: data collection", "Methods chapter: rewrite the sampling section",
        "Add the survey questions to the appendix",
      ]),
  ]
  static let footerAndSync: [Project] = [
    Project("notes-app", false, ["Clean up the footer layout", "Fix a sync conflict when two devices edit a note"])
  ]
  static let sidebarAndBilling: [Project] = [
    Project("notes", false, ["Make the sidebar resizable"]), Project("billing", true, ["Invoice Initech"]),
  ]
  static let tagFilter: [Project] = [
    Project(
      "notes-app", false,
      [
        "Add a tag filter to the sidebar", "Tag filter: keyboard shortcut", "Fix the tag filter resetting on reload",
      ]),
    Project("site", false, ["Update the changelog"]),
  ]
  static let french: [Project] = [Project("site", false, ["Corrige l'export PDF des factures"])]

  /// What the guard accepted before this rule (issue 19, from the evaluation and end-to-end scripts).
  static let invented: [Case] = [
    Case(
      journalingPost,
      "I worked on a project to create a new journaling platform that allows users to share their writing with "
        + "others.", "'platform', 'allows', 'users'"),
    Case(
      accounts,
      #"I worked on a new version of the "UserStore" module, which is designed to improve the security and "#
        + "efficiency of the user service.", "'version', 'designed', 'security'"),
    Case(
      postgres, "I worked on a custom server for a Postgres 16.x client that handled 4 times the number of requests.",
      "'custom', 'client', 'number'"),
    Case(
      sortAndThesis, "I worked on a note-appending tool that helps users manage their own notes and lists.",
      "'appending', 'tool', 'helps'"),
    Case(
      sidebarAndBilling, "I worked on a private project, a sidebar to a paid affiliate marketing platform.", "'paid'"),
    // A private project's subjects are never in the prompt: nothing but its name and count can be said of it.
    Case(thesisAndBilling, "I worked on the tax rules for billing.", "'tax', 'rules'"),
    // Synonyms and translations are not the facts' words.
    Case(SentenceGuardTests.typo, "I worked on a website.", "'website'"),
    Case(french, "I fixed the PDF export of the invoices.", "'invoices'"),
    // "new" needs a subject that adds or starts something; "bug" one that fixes something.
    Case([Project("notes-app", false, ["Make the sidebar resizable"])], "I worked on a new sidebar.", "'new'"),
    Case([Project("notes-app", false, ["Make the sidebar resizable"])], "I worked on a sidebar bug.", "'bug'"),
    Case(SentenceGuardTests.typo, "I worked on a new feature in site.", "'new', 'feature'"),
    // Names the model gives the user, places, times of day.
    Case(footerAndSync, "Ada tidied the footer in notes-app.", "'ada'"),
    Case(footerAndSync, "In the evening I tidied the footer.", "'evening'"),
  ]

  @Test(arguments: invented)
  func inventedContentIsRejected(_ example: Case) throws {
    let problem = try #require(Self.problem(example.sentence, example.projects), "accepted")
    #expect(problem.contains("says what the facts do not"), "\(problem)")
    #expect(problem.contains(example.reason ?? ""), "\(problem)")
  }

  /// Numbers in a role the facts do not give them: a commit count as a multiplier or as a count of something else,
  /// a project's count for another project, a subject's number for something else.
  static let misplacedNumbers: [Case] = [
    Case(postgres, "I worked 4 times on Postgres.", "another role"),
    Case(thesisAndBilling, "I worked on a private project twice.", "there it is a commit count"),
    Case(thesisAndBilling, "I committed 3 times to billing.", "that of the project it names"),
    Case(postgres, "I made 429 payments in api-server.", "part of a subject"),
    Case(postgres, "I made 16 commits to api-server.", "neither the day's count"),
    Case(tagFilter, "I worked on 3 projects.", "not how many there were"),
  ]

  @Test(arguments: misplacedNumbers)
  func numbersInAnotherRoleAreRejected(_ example: Case) throws {
    let problem = try #require(Self.problem(example.sentence, example.projects), "accepted")
    #expect(problem.contains(example.reason ?? ""), "\(problem)")
  }

  /// Work of one project put under another with "in", "for", "to": the words are the facts', the relation is not.
  static let misattributed: [Case] = [
    // SmolLM2's words (evaluation, seed 7).
    Case(
      SentenceGuardTests.fourProjects,
      "I worked on api-server (add rate limiting to the login endpoint, test the rate limiter) in dotfiles (add an "
        + "alias for the journal).", "'limiter … in dotfiles'"),
    Case(tagFilter, "I added a keyboard shortcut to site.", "'shortcut … to site'"),
    Case(
      SentenceGuardTests.healthAndEarlyStopping, "Fixed the health endpoint in ml-experiments.", "'endpoint … in ml-"),
  ]

  @Test(arguments: misattributed)
  func workOfAnotherProjectIsRejected(_ example: Case) throws {
    let problem = try #require(Self.problem(example.sentence, example.projects), "accepted")
    #expect(problem.hasPrefix("puts another project's work under"), "\(problem)")
    #expect(problem.contains(example.reason ?? ""), "\(problem)")
  }

  /// What a good model (a 4B one) writes from the same facts: the facts' words, rephrased, inflected, joined.
  static let grounded: [Case] = [
    Case(footerAndSync, "Tidied the footer and fixed a sync conflict in notes-app.", nil),
    Case(
      accounts,
      "I split the user service into smaller modules, renamed UserStore to Accounts and added tests for account "
        + "creation.", nil),
    Case(
      SentenceGuardTests.flakyTest,
      "I bumped the dependencies, fixed the flaky auth test and then reverted the bump.", nil),
    Case(
      SentenceGuardTests.fourProjects,
      "I added rate limiting to the login endpoint, a hover preview in notes-app and an alias for the journal, and "
        + "fixed a broken link in the footer of site.", nil),
    Case(tagFilter, "Added a new tag filter to the notes-app sidebar with a keyboard shortcut.", nil),
    Case(tagFilter, "I fixed a bug where the tag filter reset on reload and updated the changelog.", nil),
    Case(
      journalingPost, "I wrote and published the journaling post, with the hook diagram and compressed images.", nil),
    Case(SentenceGuardTests.dotfiles, "Switched the shell prompt to starship and added git aliases for rebasing.", nil),
    Case(postgres, "I upgraded api-server to Postgres 16, added Python 3.12 support and released 2.4.0.", nil),
    Case(SentenceGuardTests.healthAndEarlyStopping, "Fixed the health endpoint and added early stopping.", nil),
    Case(french, "I worked on the PDF export in site.", nil),
    Case(tagFilter, "I added a new feature to the sidebar.", nil),
    Case(tagFilter, "I added a keyboard shortcut to notes-app and updated the changelog of site.", nil),
    Case(SentenceGuardTests.healthAndEarlyStopping, "Added early stopping to ml-experiments.", nil),
    Case(SentenceGuardTests.dotfiles, "I used starship for the shell prompt.", nil),
    // SmolLM2's words.
    Case(SentenceGuardTests.fourProjects, "I worked on a patch to fix a broken link in the footer.", nil),
    // Counts in their own role.
    Case(SentenceGuardTests.billing, "I made 12 commits to billing, a private project.", nil),
    Case(thesisAndBilling, "I committed 3 times to thesis and twice to billing, both private projects.", nil),
    Case(thesisAndBilling, "Five commits across two private projects, billing and thesis.", nil),
    Case(tagFilter, "I made 3 commits to notes-app and one to site across 2 projects.", nil),
    Case(SentenceGuardTests.wip, "I committed once to notes-app.", nil),
    // Nothing but words any day may use.
    Case(SentenceGuardTests.wip, "I spent the day on small fixes and tidied up the code.", nil),
  ]

  @Test(arguments: grounded)
  func goodSentencesAreAccepted(_ example: Case) {
    #expect(Self.problem(example.sentence, example.projects) == nil)
  }

  /// The grounded sentences pass the whole guard too, unchanged.
  @Test(arguments: grounded)
  func goodSentencesPassTheGuard(_ example: Case) {
    #expect(SentenceGuardTests.check(example.sentence, example.projects) == .accepted(example.sentence))
  }

  /// Inflections of one word share a stem, and distinct words of the facts keep distinct stems.
  @Test func stems() {
    for group in [
      ["fix", "fixes", "fixed", "fixing"], ["note", "notes"], ["commit", "commits", "committed", "committing"],
      ["teach", "taught"], ["tidy", "tidied", "tidies", "tidying"], ["add", "added", "adding", "adds"],
      ["module", "modules"], ["cache", "caches", "cached"], ["write", "wrote", "written", "writing"],
      ["release", "released", "releasing"], ["compress", "compressed"], ["simplify", "simplified"],
    ] {
      #expect(Set(group.map(Grounding.stem)).count == 1, "\(group): \(group.map(Grounding.stem))")
    }
    let distinct = ["sort", "settings", "sync", "string", "thing", "test", "text", "tab", "tag"]
    #expect(Set(distinct.map(Grounding.stem)).count == distinct.count, "\(distinct.map(Grounding.stem))")
  }
}
