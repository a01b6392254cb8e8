import Facts
import Journal
import Narrative
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The model's sentences for the pages: found for exactly the facts a page shows (another machine's, through the
/// model's guard, or this machine's cache), and attached to a page whose facts are still those.
extension Journaling {
  /// The sentence for exactly these facts (every machine's facts of the day), if a model wrote one: on any
  /// machine (shared in the journal folder, whatever this machine's model settings), else in this machine's cache.
  /// `sharing`: a sentence found only in this machine's cache is shared, so the other machines show it too (a
  /// writer does this; `show` writes nothing).
  /// `hasCachedSentences`: whether this machine's cache had any sentence when the caller looked, for many pages in
  /// a row (looked at here unless given).
  func sentence(for facts: DayFacts, sharing: Bool = false, hasCachedSentences: Bool? = nil) -> String? {
    guard !facts.isEmpty else { return nil }
    let isShared = store.hasSharedSentences(of: facts.day)
    let isCached = hasCachedSentences ?? sentences?.hasSentences ?? false
    // A signature costs more than writing the page: none is computed while there is no sentence at all.
    guard isShared || isCached else { return nil }
    let signature = facts.signature(calendar: configuration.calendar)
    if isShared, let sentence = store.sharedSentence(of: facts.day, signature: signature) {
      switch SharedSentenceGuard.check(sentence, for: facts) {
      case .accepted(let text): return text
      case .rejected(let reason): refuseShared(of: facts.day.description, because: reason)
      }
    }
    guard isCached, let sentence = sentences?.sentence(signature: signature) else { return nil }
    if sharing { store.share(sentence: sentence, of: facts.day, signature: signature) }
    return sentence
  }

  /// The sentence for exactly these facts of a week or a month (every machine's records of its days), found as
  /// `sentence(for:sharing:)` finds a day's.
  func sentence(for period: PeriodFacts, sharing: Bool = false, hasCachedSentences: Bool? = nil) -> String? {
    guard !period.isEmpty else { return nil }
    let isShared = store.hasSharedSentences(of: period.period)
    let isCached = hasCachedSentences ?? sentences?.hasSentences ?? false
    guard isShared || isCached else { return nil }
    let signature = period.signature(calendar: configuration.calendar)
    if isShared, let sentence = store.sharedSentence(of: period.period, signature: signature) {
      switch SharedSentenceGuard.check(sentence, for: period) {
      case .accepted(let text): return text
      case .rejected(let reason): refuseShared(of: period.period.description, because: reason)
      }
    }
    guard isCached, let sentence = sentences?.sentence(signature: signature, page: .period) else { return nil }
    if sharing { store.share(sentence: sentence, of: period.period, signature: signature) }
    return sentence
  }

  /// Notes that the sentence another machine shared for the page `name` failed the model's guard: the page is shown
  /// without it (or with this machine's own), and the hook's log or the command's warnings say so once.
  private func refuseShared(of name: String, because reason: String) {
    RefusedInputs.note(
      "refused the sentence shared for \(name): the guard rejects it, \(reason)",
      about: store.directory + "/" + name)
  }

  /// Puts `sentence`, written for `facts` (every machine's recorded facts of the day), into the day's file if the
  /// records still hold exactly those facts, and shares it with the other machines; does nothing when they have
  /// moved on (a commit here or on another machine, a rebuild or a config change since). Returns whether it did.
  /// Repositories are not read: the narrator only ever decorates what is already recorded.
  func attach(_ sentence: String, to facts: DayFacts) async throws -> Bool {
    let calendar = configuration.calendar
    let signature = facts.signature(calendar: calendar)
    return try await store.locked { locked in
      guard let recorded = locked.recordedFacts(of: facts.day), recorded.signature(calendar: calendar) == signature
      else { return false }
      store.share(sentence: sentence, of: facts.day, signature: signature)
      try writer.render(facts.day, sentence: { self.sentence(for: $0, sharing: true) }, in: locked)
      return true
    }
  }

  /// Puts `sentence`, written for `facts` (every machine's records of the period's days), into the week's or month's
  /// page if the page is there and the records still hold exactly those facts, and shares it; does nothing when they
  /// have moved on (a commit on any of its days, here or on another machine, a rebuild or a config change since) or
  /// the page is gone. Returns whether it did. Repositories are not read, and no page is made.
  func attach(_ sentence: String, to facts: PeriodFacts) async throws -> Bool {
    let calendar = configuration.calendar
    let signature = facts.signature(calendar: calendar)
    return try await store.locked { locked in
      guard writer.periods(containing: facts.period.first).contains(facts.period),
        access(store.path(ofPage: facts.name), F_OK) == 0
      else { return false }
      let recorded = writer.periodFacts(of: facts.period, in: locked)
      guard recorded.signature(calendar: calendar) == signature else { return false }
      store.share(sentence: sentence, of: facts.period, signature: signature)
      try writer.writePeriod(recorded, sentence: { self.sentence(for: $0, sharing: true) }, in: locked)
      return true
    }
  }
}
