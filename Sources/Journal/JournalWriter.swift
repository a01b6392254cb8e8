import Facts
import Support

/// Writes day files from facts and, when there is one, the model's sentence: the one way data reaches the
/// journal. It never reads repositories and never asks the model; it is given both.
public struct JournalWriter: Sendable {
  public let store: JournalStore
  public let calendar: JournalCalendar

  public init(store: JournalStore, calendar: JournalCalendar) {
    self.store = store
    self.calendar = calendar
  }

  /// A day as it was written.
  public struct WrittenDay: Sendable {
    public let facts: DayFacts
    public let sentence: String?
    public let outcome: JournalStore.Outcome
  }

  /// Writes one day, taking the journal lock for it (`FileLock.Busy` after `JournalStore.lockTimeout`).
  @discardableResult
  public func write(
    _ facts: DayFacts, sentence: String?, durability: JournalStore.Durability = .immediate
  ) throws -> WrittenDay {
    try store.lockedNow { locked in try write(facts, sentence: sentence, in: locked, durability: durability) }
  }

  /// Writes one day while the caller holds the journal lock (`store.locked`). `recorded`: the day's record as the
  /// caller read it under this lock (`.some(nil)` for none), which spares reading it again; nil when not read.
  @discardableResult
  public func write(
    _ facts: DayFacts, sentence: String?, in locked: LockedJournalStore,
    durability: JournalStore.Durability = .immediate, recorded: DayFacts?? = nil
  ) throws(SystemError) -> WrittenDay {
    let outcome = try locked.write(
      page(facts, sentence: sentence), for: facts.day, isEmpty: facts.isEmpty, durability: durability)
    // The record follows the file: what the file says is what the next write carries over.
    if outcome != .nothingToWrite { try locked.writeRecord(facts, durability: durability, recorded: recorded) }
    return WrittenDay(facts: facts, sentence: sentence, outcome: outcome)
  }

  private func page(_ facts: DayFacts, sentence: String?) -> JournalPage {
    JournalPage(facts: facts, narrative: facts.isEmpty ? nil : sentence, calendar: calendar)
  }
}
