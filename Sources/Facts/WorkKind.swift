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

  /// The kind of the commit whose subject is `subject`. Read as bytes, not characters: the hook takes the kinds of
  /// every commit of the month for its pages, and a subject's characters cost it a third of its instructions.
  public init(subject: String) {
    var subject = subject
    self = subject.withUTF8 { Self.kind(of: $0) }
  }

  /// `type`, `type(scope)`, `type!` or `type(scope)!` then a colon is a conventional-commit type; else the first
  /// word is a leading verb, in ASCII letters of any case.
  private static func kind(of bytes: UnsafeBufferPointer<UInt8>) -> WorkKind {
    var start = 0
    while start < bytes.count && (bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t")) {
      start += 1
    }
    var end = start
    while end < bytes.count && end - start < longestWord && isLetter(bytes[end]) { end += 1 }
    guard end > start else { return .other }
    let word = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: longestWord) { buffer -> String in
      for index in start..<end { buffer[index - start] = bytes[index] | 0x20 }
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<(end - start)]), as: UTF8.self)
    }
    var after = end
    if after < bytes.count && bytes[after] == UInt8(ascii: "(") {
      while after < bytes.count && after - end < longestScope && bytes[after] != UInt8(ascii: ")") { after += 1 }
      after += 1
    }
    if after < bytes.count && bytes[after] == UInt8(ascii: "!") { after += 1 }
    if after < bytes.count && bytes[after] == UInt8(ascii: ":"), let kind = types[word] { return kind }
    return verbs[word] ?? .other
  }

  /// Longer words are no type and no verb of the tables.
  private static let longestWord = 16
  /// A scope longer than this is no conventional-commit scope.
  private static let longestScope = 64

  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
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
  public static func < (lhs: WorkKind, rhs: WorkKind) -> Bool { lhs.index < rhs.index }

  /// The kind's place in `allCases`, without making that array (the hook counts kinds for every commit of a month).
  var index: Int {
    switch self {
    case .feature: 0
    case .fix: 1
    case .refactor: 2
    case .perf: 3
    case .docs: 4
    case .test: 5
    case .build: 6
    case .ci: 7
    case .chore: 8
    case .revert: 9
    case .other: 10
    }
  }
}
