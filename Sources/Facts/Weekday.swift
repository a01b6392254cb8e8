/// A day of the week, Monday first as in ISO 8601.
public enum Weekday: Int, CaseIterable, Sendable, CustomStringConvertible {
  case monday, tuesday, wednesday, thursday, friday, saturday, sunday

  public var description: String {
    ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][rawValue]
  }

  /// A weekday's English name in any case (`monday`, `Monday`), or its first three letters (`mon`).
  public init?(name: String) {
    let lowered = name.lowercased()
    guard lowered.count >= 3,
      let match = Self.allCases.first(where: { $0.description.lowercased().hasPrefix(lowered) })
    else { return nil }
    guard lowered.count == 3 || lowered == match.description.lowercased() else { return nil }
    self = match
  }
}
