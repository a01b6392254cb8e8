/// The kind of work a commit is, computed from its subject alone: its conventional-commit type when it has one
/// (`fix(parser)!: …`), else its leading verb through `verbs`, else `other`. A fact like the counts: the same
/// subject gives the same kind on every machine and in every version that has this table.
public enum WorkKind: String, CaseIterable, Codable, Sendable, Comparable {
  case feature, fix, refactor, perf, docs, test, build, ci, chore, revert, other

  /// The conventional-commit types (conventionalcommits.org and the Angular convention it comes from).
  static let types: [(WorkKind, [String])] = [
    (.feature, ["feat", "feature"]), (.fix, ["fix"]), (.docs, ["docs", "doc"]), (.refactor, ["refactor"]),
    (.perf, ["perf"]), (.test, ["test", "tests"]), (.build, ["build"]), (.ci, ["ci"]), (.chore, ["chore"]),
    (.revert, ["revert"]),
  ]

  /// Leading verbs, in any case and any of the forms listed (`Fix`, `Fixes`, `Fixed`).
  static let verbs: [(WorkKind, [String])] = [
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
    var word: UInt64 = 0
    while end < bytes.count && isLetter(bytes[end]) {
      // Five bits a letter, `a` as 1: a word longer than `longestWord` is in no table, and is read to its end.
      if end - start < longestWord { word = word << 5 | UInt64((bytes[end] | 0x20) - UInt8(ascii: "a") + 1) }
      end += 1
    }
    guard end > start, end - start <= longestWord else { return .other }
    var after = end
    if after < bytes.count && bytes[after] == UInt8(ascii: "(") {
      while after < bytes.count && after - end < longestScope && bytes[after] != UInt8(ascii: ")") { after += 1 }
      after += 1
    }
    if after < bytes.count && bytes[after] == UInt8(ascii: "!") { after += 1 }
    if after < bytes.count && bytes[after] == UInt8(ascii: ":"), let kind = packedTypes.kind(of: word) { return kind }
    return packedVerbs.kind(of: word) ?? .other
  }

  /// A table's words packed as `kind(of:)` packs a subject's first word, in an open-addressed table: a subject's kind
  /// is told without making a string or hashing one, and the table is made once a process without sorting or
  /// hashing strings (the hook tells the kinds of every commit of the month for its pages).
  struct PackedWords: Sendable {
    /// A power of two, several times the number of words: a probe seldom meets another word.
    private static let slotCount = 1 << 10
    private var words: [UInt64]
    private var kinds: [WorkKind]

    init(_ table: [(WorkKind, [String])]) {
      words = Array(repeating: 0, count: Self.slotCount)
      kinds = Array(repeating: .other, count: Self.slotCount)
      for (kind, list) in table {
        for word in list {
          var value: UInt64 = 0
          for byte in word.utf8 { value = value << 5 | UInt64(byte - UInt8(ascii: "a") + 1) }
          var slot = Self.slot(of: value)
          while words[slot] != 0 && words[slot] != value { slot = (slot + 1) & (Self.slotCount - 1) }
          words[slot] = value
          kinds[slot] = kind
        }
      }
    }

    /// Fibonacci hashing: the packed word's high bits, well mixed.
    private static func slot(of word: UInt64) -> Int {
      Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> 54)
    }

    func kind(of word: UInt64) -> WorkKind? {
      var slot = Self.slot(of: word)
      while words[slot] != 0 {
        if words[slot] == word { return kinds[slot] }
        slot = (slot + 1) & (Self.slotCount - 1)
      }
      return nil
    }
  }

  private static let packedTypes = PackedWords(types)
  private static let packedVerbs = PackedWords(verbs)

  /// Longer words are no type and no verb of the tables (whose longest has 11 letters); 12 letters of five bits fit
  /// in a `UInt64`.
  private static let longestWord = 12
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
