import Facts

/// What a caller knows of this machine's record of a day, read under the journal lock: a writer that knows it need
/// not read it again.
public enum KnownRecord: Sendable, Equatable {
  /// Not read: the writer reads it where it needs it.
  case unread
  /// Read, and there is no record of the day.
  case absent
  /// Read: the record holds these facts.
  case read(DayFacts)

  /// The record as read: `.read` with its facts, `.absent` for none.
  public init(_ facts: DayFacts?) {
    self = facts.map { .read($0) } ?? .absent
  }
}
