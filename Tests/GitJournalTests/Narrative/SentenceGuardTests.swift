import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Narrative
@testable import Support

/// The guard on answers a real model gave: SmolLM2-135M-Instruct on llama.cpp's llama-server, asked with the
/// prompt of the day shown (scripts/evaluate-sentences.sh and scripts/e2e-local-model.sh; BENCHMARKS.md). The
/// accepted and rejected answers are verbatim, so every rule is tested on the kind of text that made it necessary.
struct SentenceGuardTests {
  /// One project's part of a day: its name, whether it is private, its commit subjects.
  struct Project: Sendable {
    let name: String
    let isPrivate: Bool
    let subjects: [String]

    init(_ name: String, _ isPrivate: Bool, _ subjects: [String]) {
      self.name = name
      self.isPrivate = isPrivate
      self.subjects = subjects
    }
  }

  /// A real answer, the day it answered, and what the guard must make of it: the sentence kept, or words of the
  /// reason it was dropped.
  struct Answer: Sendable, CustomTestStringConvertible {
    let projects: [Project]
    let raw: String
    let expected: String

    init(_ projects: [Project], _ raw: String, _ expected: String) {
      self.projects = projects
      self.raw = raw
      self.expected = expected
    }

    var testDescription: String { String(raw.prefix(70)) }
  }

  static let calendar = JournalCalendar(timeZone: .utc)

  /// The facts of a day of these projects.
  static func facts(_ projects: [Project]) -> DayFacts {
    let day = Day(year: 2026, month: 10, day: 12)
    let start = calendar.window(of: day).start + 9 * 3600
    var index = 0
    let facts = projects.map { project in
      let commits = project.subjects.map { subject in
        index += 1
        return CommitRecord(
          id: .repeating(String(index % 10)), authorName: "Me", authorEmail: "me@example.com",
          authoredAt: start + Int64(index) * 600, authorOffsetMinutes: 0, subject: subject, isMerge: false,
          stats: DiffStats(filesChanged: 1, insertions: 12 * index, deletions: 3))
      }
      return ProjectFacts(
        name: project.name, path: "/code/\(project.name)", isPrivate: project.isPrivate, commits: commits)
    }
    return DayFacts(day: day, projects: facts)
  }

  /// The guard's verdict on `raw` as an answer to the prompt gitjournal sends for a day of these projects.
  static func check(_ raw: String, _ projects: [Project]) -> SentenceGuard.Verdict {
    let facts = facts(projects)
    let prompt = Prompt(facts: facts)
    return SentenceGuard.check(raw, prompt: prompt.user, grounding: Grounding(facts: facts))
  }

  static let notesApp: [Project] = [Project("notes-app", false, ["Fix the crash when the sync folder is missing"])]
  static let fontAndAbout: [Project] = [
    Project("dotfiles", false, ["Configure the new terminal font"]), Project("site", false, ["Update the about page"]),
  ]
  static let flakyTest: [Project] = [
    Project("api-server", false, ["Bump dependencies", "Fix the flaky auth test", "Revert \"Bump dependencies\""])
  ]
  static let journalingPost: [Project] = [
    Project(
      "site", false,
      [
        "Start a post about journaling with git", "Post: add the hook diagram", "Post: second draft",
        "Compress the images", "Publish the journaling post",
      ]
    )
  ]
  static let fourProjects: [Project] = [
    Project("api-server", false, ["Add rate limiting to the login endpoint", "Test the rate limiter"]),
    Project("dotfiles", false, ["Add an alias for the journal"]),
    Project("notes-app", false, ["Show a preview on hover", "Fix the preview position near the edge"]),
    Project("site", false, ["Fix a broken link in the footer"]),
  ]
  static let postgres: [Project] = [
    Project(
      "api-server", false,
      ["Upgrade to Postgres 16", "Handle HTTP 429 from the payment API", "Support Python 3.12", "Release 2.4.0"]
    )
  ]
  static let billing: [Project] = [Project("billing", true, Array(repeating: "Private subject", count: 12))]
  static let dotfiles: [Project] = [
    Project("dotfiles", false, ["Switch the shell prompt to starship", "Add git aliases for rebase"])
  ]
  static let wip: [Project] = [Project("notes-app", false, ["WIP"])]
  static let typo: [Project] = [Project("site", false, ["Typo"])]
  static let healthAndEarlyStopping: [Project] = [
    Project("api-server", false, ["Fix the health endpoint status code"]),
    Project("ml-experiments", false, ["Add early stopping", "Save the best checkpoint"]),
  ]
  static let accounts: [Project] = [
    Project(
      "api-server", false,
      [
        "Split the user service into smaller modules", "Move password hashing to its own module",
        "Rename UserStore to Accounts", "Add tests for account creation", "Fix the session expiry check",
        "Simplify the error middleware", "Log slow queries", "Document the accounts module",
      ]
    )
  ]

  /// Answers that reach the journal, and what is kept of them.
  static let accepted: [Answer] = [
    Answer(
      fontAndAbout, "I worked on a new terminal font and updated the about page.",
      "I worked on a new terminal font and updated the about page."
    ),
    Answer(flakyTest, "I worked on a bug fix to the flaky auth test.", "I worked on a bug fix to the flaky auth test."),
    // The question read back, then the answer: the answer is kept.
    Answer(
      notesApp, #"In one sentence, what did I work on today: "I fixed the crash when the sync folder is missing.""#,
      "I fixed the crash when the sync folder is missing."
    ),
    Answer(
      journalingPost,
      "In one sentence, what did I work on today: I created a new journaling post with a hook diagram.",
      "I created a new journaling post with a hook diagram."
    ),
    Answer(typo, "In one sentence, I fixed a typo in site.", "I fixed a typo in site."),
    // Quotes opened and never closed are dropped, not left dangling.
    Answer(
      flakyTest,
      #"In one sentence, what did I work on today: "I fixed the flaky auth test" and "Revert "Bump dependencies"""#
        + ".",
      "I fixed the flaky auth test and Revert Bump dependencies."
    ),
    // A count the prompt gives ("12 times") may be stated.
    Answer(
      billing, "I committed 12 times to billing, a private project.",
      "I committed 12 times to billing, a private project."
    ),
    // Version numbers from the subjects are facts too ("16.x" is no sentence end).
    Answer(
      postgres, "I upgraded api-server to Postgres 16.x and handled HTTP 429 from the payment API.",
      "I upgraded api-server to Postgres 16.x and handled HTTP 429 from the payment API."
    ),
    // "Worked on" twice is plain English, not a loop.
    Answer(
      healthAndEarlyStopping,
      #"In one sentence, what did I work on today: "I worked on the health endpoint status code, and I "#
        + #"also worked on early stopping.""#,
      "I worked on the health endpoint status code, and I also worked on early stopping."
    ),
  ]

  /// A private project's day may name the project, and nothing more: that is telling enough.
  @Test func aPrivateProjectsNameIsWorthSaying() {
    let sentence = "Today I committed once to billing, a private project."
    #expect(Self.check(sentence, [Project("billing", true, ["Private subject"])]) == .accepted(sentence))
  }

  @Test(arguments: accepted)
  func acceptedAnswers(_ answer: Answer) {
    #expect(Self.check(answer.raw, answer.projects) == .accepted(answer.expected))
  }

  /// Answers that are dropped, with the words the reason must contain.
  static let rejected: [Answer] = [
    // True, and nothing the factual line under it does not say (SmolLM2's answers on the days of scripts/
    // evaluate-sentences.sh). A private project's name is a fact worth saying; "a private project" is not.
    Answer(fontAndAbout, "Today I committed twice.", "says only what the factual line says"),
    Answer(notesApp, "Today I committed once.", "says only what the factual line says"),
    Answer(
      [Project("billing", true, ["Private subject"])], "I made 1 commit to a private project today.",
      "says only what the factual line says"
    ),
    // Version 4's facts read back: SmolLM2's answers on the held-out days of scripts/evaluate-sentences.sh.
    Answer(
      [Project("mobile-app", false, ["Release 3.1.0"])],
      #"Today I worked on a mobile-app that had 1 commit (1 chore): "Release 3.1.0"."#,
      "echoes the prompt ('had 1 commit"
    ),
    Answer(
      [Project("mobile-app", false, ["Fix the crash on an empty feed", "Update the app icon"])],
      #"Today I worked on a mobile-app that had 2 commits: "Fix the crash on an empty feed"; "Update the app icon"."#,
      "echoes the prompt ('had 2 commits:"
    ),
    // Loops.
    Answer(
      fourProjects,
      "In one sentence, what did I work on today: I fixed a broken link in the footer and fixed a broken link in "
        + "the footer.",
      "repeats itself"
    ),
    Answer(
      [Project("api-server", false, ["Split the user service into smaller modules"])],
      "I worked on a new server-side server-side server (SSRS) plugin that simplifies the login process for a new "
        + "client.",
      "repeats itself"
    ),
    Answer(
      [Project("billing", true, ["Private subject"]), Project("thesis", true, ["Private subject"])],
      "The day's work was a private affair, a private affair, a private affair.", "repeats itself"
    ),
    // Numbers the facts do not contain: "256 GB". "Lens-1": the question's "one sentence" is no fact, but on this day
    // 1 is a count of a kind of work (dotfiles had 1 feature), so it is the invented words that sink the answer.
    Answer(
      dotfiles + [Project("site", false, ["Post: add the hook diagram", "Post: second draft"])],
      #"I worked on a project to create a new version of the "Lens-1" project, which was a project that was "#
        + "designed to be a multi-purpose project that could be used to create multiple projects.",
      "says what the facts do not ('version'"
    ),
    Answer(
      postgres,
      "I worked on a custom server for a Postgres 16.0.2 server, which is a high-end server with 256 GB of RAM, "
        + "16 GB of RAM, 16 GB of SSD, " + String(repeating: "16 GB of RAM, ", count: 10),
      "number 256"
    ),
    // The prompt coming back.
    Answer(wip, "In one sentence, what did I work on today?", "echoes the prompt"),
    Answer(flakyTest, "I worked on a developer's diary.", "echoes the prompt ('developer's diary')"),
    Answer(
      flakyTest, #"You committed 3 times: "Bump dependencies"; "Fix the flaky auth test"; "Revert "Bump dependencies""#,
      "echoes the prompt ('committed 3 times:')"
    ),
    Answer(
      accounts,
      #"You committed: "Split the user service into smaller modules; "Move password hashing to its own module; "#
        + #""Rename UserStore to Accounts; Add tests for account creation; "Fix the session expiry check; "#
        + #""Simplify the error middleware; "Log slow queries; "Document the accounts module" (10 commits)."#,
      "echoes the prompt ('committed:')"
    ),
    Answer(
      notesApp,
      #"In one sentence, what did I work on today: "Fixing the crash when the sync folder is missing" (1 commit)"#,
      "echoes the prompt ('(1 commit)')"
    ),
    // Version 1's prompt coming back, then a list (version 2's prompt got no answer of several lines in 100).
    Answer(
      fontAndAbout,
      "Day: Friday, 23 October 2026\nTotal: 2 commits across 2 projects, +13 -5 lines\n- dotfiles: 1 commit, at "
        + "20:15, +10 -2: Configure the new terminal font\n- site: 1 commit, at 21:00, +3 -3: Update the about page",
      "several lines"
    ),
    Answer(
      [Project("notes-app", false, ["Sort notes by last edit"]), Project("thesis", true, ["Private subject"])],
      "A day in the life of a developer:\n\n- Monday: 8 October 2026\n- Day: Thursday, 8 October 2026\n- Total: 3 "
        + "commits, +230 - 43 lines\n- Notes:\n- A day in the life of a developer:\n- Monday: 8 October 2026\n- Day: "
        + "Thursday, 8 October 2026\n- Total: 3 commits, +230 - 43 lines\n- Day: Thursday, 8 October",
      "several lines"
    ),
    // An assistant talking to the reader, not a diary.
    Answer(
      notesApp,
      String(
        repeating:
          "I'm glad to hear that you're enjoying your work and that you're looking for ways to improve it.\n\n",
        count: 5),
      "talks to the reader ('glad to')"
    ),
    Answer(billing, "I'm happy to help with your project. What's the project's name?", "talks to the reader"),
    Answer(
      postgres,
      "A: I made a few changes to the API-server server, but I'm not sure if I've actually completed anything. I'm "
        + "not sure if I've actually completed anything, but I'm sure I've done something.",
      "talks to the reader ('i'm not sure')"
    ),
    Answer(
      wip,
      "You've managed to work on a single sentence, but I'll make sure to provide more detail to make it more "
        + "interesting.",
      "talks to the reader"
    ),
    Answer(wip, "You've managed to work on a single sentence.", "talks about the question ('sentence')"),
    // Fragments: a label alone, the first line of the answer above, a command line that never ends.
    Answer(notesApp, "Work:", "too short"),
    Answer([Project("notes-app", false, ["Sort notes by last edit"])], "A day in the life of a developer:", "colon"),
    Answer(
      dotfiles,
      "A: I made a change to the command `git rebase -R -S -n 2 --recursive"
        + String(repeating: " --no-recursive", count: 19) + " --",
      "longer than 300"
    ),
  ]

  @Test(arguments: rejected)
  func rejectedAnswers(_ answer: Answer) {
    let verdict = Self.check(answer.raw, answer.projects)
    guard case .rejected(let why) = verdict else {
      Issue.record("accepted: \(verdict)")
      return
    }
    #expect(why.contains(answer.expected), "rejected for another reason: \(why)")
  }

  /// Labels before the answer, on its line or on a line of their own, are not part of the sentence (made-up
  /// answers in the shapes models use; SmolLM2 wrote "A: …").
  @Test(arguments: [
    "Here is the sentence:\nI fixed the crash when the sync folder is missing.",
    "Sentence: I fixed the crash when the sync folder is missing.",
    "**Summary:** I fixed the crash when the sync folder is missing.",
    "A: I fixed the crash when the sync folder is missing.",
  ])
  func labelsAreStripped(raw: String) {
    #expect(
      Self.check(raw, Self.notesApp)
        == .accepted("I fixed the crash when the sync folder is missing."))
  }

  static let footer: [Project] = [
    Project("site", false, ["Fix a broken link in the footer", "Update the footer layout"])
  ]

  /// Anything a Markdown viewer would fetch, render or reorder is dropped (issue 15): a way out of the machine
  /// that the loopback rule does not cover, or text that reads as something else.
  @Test(arguments: [
    ("I fixed the footer ![x](https://host/t.png?data).", "contains a URL ('https://host/t.png?data"),
    ("I fixed the footer ![x](/t.png).", "contains a Markdown link or image ('![')"),
    ("I fixed the [footer](/about) layout.", "contains a Markdown link or image ('](')"),
    ("I fixed the [footer][ref] layout.", "contains a Markdown link or image ('][')"),
    ("I fixed the footer, see www.example.com for more.", "contains a URL ('www.example.com"),
    ("I fixed the footer <https://example.com> today.", "contains a URL"),
    ("I fixed the footer mailto:me@example.com today.", "contains a URL"),
    ("I fixed the footer <img src=x onerror=alert(1)> today.", "contains HTML ('<img"),
    ("I fixed the footer <!--gitjournal:end--> today.", "contains HTML ('<!--gitjournal:end--"),
    ("I fixed the footer &#x202E; layout.", "contains HTML ('&#x202E;')"),
    ("I fixed the `footer` layout.", "contains a code span"),
    ("I fixed the footer\u{202E} layout.", "contains a bidirectional control character (U+202E)"),
    ("I fixed the footer\u{2067} layout.", "contains a bidirectional control character (U+2067)"),
    ("I fixed the footer\u{1B}[31m layout.", "contains a control character (U+001B)"),
    ("I fixed the footer\u{7} layout.", "contains a control character (U+0007)"),
    // A sentence is a line of its own: `~~~` there opens a fence, and the rest of the page would read as code.
    ("~~~ I fixed the footer layout.", "opens a code fence"),
  ])
  func markupIsRejected(raw: String, reason: String) {
    let verdict = Self.check(raw, Self.footer)
    guard case .rejected(let why) = verdict else {
      Issue.record("accepted: \(verdict)")
      return
    }
    #expect(why.hasPrefix(reason), "rejected for another reason: \(why)")
  }

  /// The same words without markup stay, and so do a word like "link" and quotes around the whole answer.
  @Test(arguments: [
    "I fixed a broken link in the footer.", "I updated the footer layout (and fixed a link).",
    "`I updated the footer layout.`", "I fixed the footer layout: a broken link.",
  ])
  func plainWordsAreNotMarkup(raw: String) {
    guard case .accepted = Self.check(raw, Self.footer) else {
      Issue.record("rejected: \(Self.check(raw, Self.footer))")
      return
    }
  }

  /// "Day:" is an echo where a word starts, not inside "Today:".
  @Test func phrasesMatchWhereAWordStarts() {
    #expect(SentenceGuard.contains("Worked on X. Day: Monday", phrase: "Day:"))
    #expect(!SentenceGuard.contains("Today: I fixed the sync crash", phrase: "Day:"))
    #expect(SentenceGuard.contains("I said HERE IS the thing", phrase: "here is"))
    #expect(!SentenceGuard.contains("Fixed where is the config read", phrase: "here is"))
  }

  /// A loop is a three-word phrase with a word of meaning said twice; plain repeats of "worked on a" are not.
  @Test func repeatedPhrases() {
    #expect(
      SentenceGuard.repeatedPhrase(in: "a personal project, a personal project, and more") == "a personal project")
    #expect(SentenceGuard.repeatedPhrase(in: "I worked on a parser and I worked on a lexer") == nil)
    #expect(SentenceGuard.repeatedPhrase(in: "short text") == nil)
  }
}
