/// How a read of the repositories goes: whose commits count and whether recent results may be reused. One value
/// chosen by each command, instead of flags handed down through the layers.
public struct ReadPolicy: Sendable, Equatable {
  /// Everyone's commits (`--all-authors`), not only the configured authors'.
  public var allAuthors: Bool
  /// A short span may come from the window cache when the repository's branches have not moved (the hook,
  /// `narrate`). False reads every repository afresh, so damage is found and reported (`rebuild`, `doctor`).
  public var reusesWindows: Bool

  public init(allAuthors: Bool, reusesWindows: Bool) {
    self.allAuthors = allAuthors
    self.reusesWindows = reusesWindows
  }

  /// The hook: the user's commits, recent spans from the window cache.
  public static let hook = ReadPolicy(allAuthors: false, reusesWindows: true)
  /// `rebuild`, `show`, `stats`, `doctor`: every repository read afresh.
  public static func fresh(allAuthors: Bool = false) -> ReadPolicy {
    ReadPolicy(allAuthors: allAuthors, reusesWindows: false)
  }
}
