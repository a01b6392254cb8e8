/// The kind of work a commit is, computed from its subject alone: its conventional-commit type when it has one
/// (`fix(parser)!: …`), else its leading verb through `verbs`, else `other`. A fact like the counts: the same
/// subject gives the same kind on every machine and in every version that has this table.
public enum WorkKind: String, CaseIterable, Codable, Sendable, Comparable {
  case feature, fix, refactor, perf, docs, test, build, ci, chore, revert, other

  /// The conventional-commit types (conventionalcommits.org and the Angular convention it comes from).
  static let types: [String: WorkKind] = [
    "feat": .feature, "feature": .feature, "fix": .fix, "docs": .docs, "doc": .docs, "refactor": .refactor,
    "perf": .perf, "test": .test, "tests": .test, "build": .build, "ci": .ci, "chore": .chore, "revert": .revert,
  ]

  /// Leading verbs, in any case and any of the forms listed (`Fix`, `Fixes`, `Fixed`).
  static let verbs: [String: WorkKind] = {
    var table: [String: WorkKind] = [:]
    let groups: [(WorkKind, [String])] = [
      (
        .fix,
        [
          "fix", "fixes", "fixed", "repair", "repairs", "repaired", "correct", "corrects", "corrected", "resolve",
          "resolves", "resolved", "patch", "patches", "patched", "hotfix",
        ]
      ),
      (
        .feature,
        [
          "add", "adds", "added", "implement", "implements", "implemented", "introduce", "introduces",
          "introduced", "support", "supports", "create", "creates", "created", "allow", "allows", "enable",
          "enables", "new",
        ]
      ),
      (
        .refactor,
        [
          "refactor", "refactors", "refactored", "remove", "removes", "removed", "delete", "deletes",
          "deleted", "drop", "drops", "dropped", "rename", "renames", "renamed", "move", "moves", "moved",
          "extract", "extracts", "simplify", "simplifies", "clean", "cleans", "cleanup", "tidy", "restructure",
          "reorganize", "reorganise",
        ]
      ),
      (.perf, ["optimize", "optimizes", "optimise", "optimises", "speed", "speeds"]),
      (.docs, ["document", "documents", "documented", "doc", "docs", "readme"]),
      (.test, ["test", "tests", "tested"]),
      (
        .chore,
        [
          "update", "updates", "updated", "upgrade", "upgrades", "upgraded", "bump", "bumps", "bumped",
          "release", "chore",
        ]
      ),
      (.revert, ["revert", "reverts", "reverted"]),
    ]
    for (kind, words) in groups { for word in words { table[word] = kind } }
    return table
  }()

  /// The kind of the commit whose subject is `subject`.
  public init(subject: String) {
    let trimmed = subject.drop { $0 == " " || $0 == "\t" }
    // `type`, `type(scope)`, `type!` or `type(scope)!`, then a colon.
    if let colon = trimmed.firstIndex(of: ":") {
      var head = trimmed[..<colon]
      if head.hasSuffix("!") { head = head.dropLast() }
      if head.hasSuffix(")"), let open = head.firstIndex(of: "(") { head = head[..<open] }
      if head.count <= 10, let kind = Self.types[head.lowercased()] {
        self = kind
        return
      }
    }
    let word = trimmed.prefix { $0.isLetter }.lowercased()
    self = Self.verbs[word] ?? .other
  }

  /// How a count of this kind reads: `2 fixes`, `1 feature`, `3 docs changes`.
  public func counted(_ count: Int) -> String {
    let one = count == 1
    switch self {
    case .feature: return "\(count) \(one ? "feature" : "features")"
    case .fix: return "\(count) \(one ? "fix" : "fixes")"
    case .refactor: return "\(count) \(one ? "refactor" : "refactors")"
    case .perf: return "\(count) \(one ? "performance change" : "performance changes")"
    case .docs: return "\(count) \(one ? "docs change" : "docs changes")"
    case .test: return "\(count) \(one ? "test change" : "test changes")"
    case .build: return "\(count) \(one ? "build change" : "build changes")"
    case .ci: return "\(count) \(one ? "CI change" : "CI changes")"
    case .chore: return "\(count) \(one ? "chore" : "chores")"
    case .revert: return "\(count) \(one ? "revert" : "reverts")"
    case .other: return "\(count) other"
    }
  }

  /// The order kinds are listed in: the order of the cases.
  public static func < (lhs: WorkKind, rhs: WorkKind) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
