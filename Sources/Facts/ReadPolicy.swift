/// How a read of the repositories goes: whose commits count and whether recent results may be reused. One value
/// chosen by each command, instead of flags handed down through the layers.
public struct ReadPolicy: Sendable, Equatable {
  /// Everyone's commits (`--all-authors`), not only the configured authors'.
  public var allAuthors: Bool
  /// A short span may come from the window cache when the repository's branches have not moved (the hook,
  /// `narrate`). False reads short spans afresh, so damage is found and reported (`doctor`; a `rebuild` whose
  /// references all moved nowhere takes its long span from the history cache and finds damage only once they move).
  public var reusesWindows: Bool
  /// A long span may come from the history cache when the references it was read from are all as they were
  /// (a second `rebuild`, see `HistoryCache`).
  public var reusesHistory: Bool
  /// The configured folders of the repositories whose branches have most likely just moved (the one a hook
  /// commits in): read first, so that their walk runs beside the checks of the others rather than after them.
  /// Only the order of the reading changes.
  /// A list, not a set: one or two folders, compared with every configured one.
  public var likelyMoved: [String] = []

  public init(allAuthors: Bool, reusesWindows: Bool, reusesHistory: Bool = false) {
    self.allAuthors = allAuthors
    self.reusesWindows = reusesWindows
    self.reusesHistory = reusesHistory
  }

  /// The hook: the user's commits, recent spans from the window cache.
  public static let hook = ReadPolicy(allAuthors: false, reusesWindows: true)
  /// `show`, `stats`, `doctor`: every repository read afresh.
  public static func fresh(allAuthors: Bool = false) -> ReadPolicy {
    ReadPolicy(allAuthors: allAuthors, reusesWindows: false)
  }
  /// `rebuild`: read afresh, except a long span whose references have not moved since the last rebuild read it.
  public static func rebuild(allAuthors: Bool = false) -> ReadPolicy {
    ReadPolicy(allAuthors: allAuthors, reusesWindows: false, reusesHistory: true)
  }
}
