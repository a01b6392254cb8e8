import Facts

/// A sentence another machine shared through the journal folder (`SharedSentences`) is that file's word, not a
/// model's: it goes through the model's guard (`SentenceGuard`), with its length limit and its markup rules, against
/// the facts it claims to describe, before any page shows it.
package enum SharedSentenceGuard {
  /// What is shown of a shared sentence.
  package enum Verdict: Equatable, Sendable {
    case accepted(String)
    case rejected(String)
  }

  /// The check of `sentence`, shared for a day of these facts.
  package static func check(_ sentence: String, for facts: DayFacts) -> Verdict {
    check(sentence, prompt: Prompt(facts: facts), grounding: { Grounding(facts: facts) })
  }

  /// The check of `sentence`, shared for a week or a month of these facts.
  package static func check(_ sentence: String, for period: PeriodFacts) -> Verdict {
    check(sentence, prompt: Prompt(period: period), grounding: { Grounding(period: period) })
  }

  private static func check(_ sentence: String, prompt: Prompt, grounding: () -> Grounding) -> Verdict {
    // Before any rule reads it: a sentence of megabytes is no sentence, whatever it says.
    guard sentence.utf8.count <= 4 * SentenceGuard.maximumLength else {
      return .rejected("longer than \(SentenceGuard.maximumLength) characters")
    }
    switch SentenceGuard.check(sentence, prompt: prompt.user, question: prompt.asked, grounding: grounding()) {
    case .accepted(let text): return .accepted(text)
    case .rejected(let reason): return .rejected(reason)
    }
  }
}
