import GitReader
import Support

/// How many commits of each kind of work (`WorkKind`): a project's, a day's, a week's. Encoded as a JSON object
/// from kind to count, kinds with no commit left out, in `WorkKind`'s order.
public struct KindCounts: Sendable, Equatable, Codable {
  /// The count of each kind, in `WorkKind.allCases`' order.
  private var counts: [Int]

  public init() { counts = Array(repeating: 0, count: WorkKind.allCases.count) }

  /// The kinds of `commits`' subjects.
  public init(commits: [CommitRecord]) {
    self.init()
    for index in commits.indices { counts[WorkKind(subject: commits[index].subject).index] += 1 }
  }

  public mutating func add(_ kind: WorkKind, count: Int = 1) {
    counts[kind.index] += count
  }

  public mutating func add(_ other: KindCounts) {
    for index in counts.indices { counts[index] += other.counts[index] }
  }

  public subscript(kind: WorkKind) -> Int { counts[kind.index] }

  /// The kinds with commits, with their counts, in `WorkKind`'s order.
  public var nonZero: [(kind: WorkKind, count: Int)] {
    zip(WorkKind.allCases, counts).filter { $0.1 > 0 }.map { ($0.0, $0.1) }
  }

  public var isEmpty: Bool { counts.allSatisfy { $0 == 0 } }

  /// Whether any commit's kind is known: "2 other commits" says nothing.
  public var isTelling: Bool { total > self[.other] }

  /// The commits counted.
  public var total: Int { counts.reduce(0, +) }

  /// `2 fixes, 1 feature`: the most frequent first, `other` last; empty when there is no commit.
  public var line: String {
    nonZero.sorted { lhs, rhs in
      if (lhs.kind == .other) != (rhs.kind == .other) { return rhs.kind == .other }
      return lhs.count != rhs.count ? lhs.count > rhs.count : lhs.kind < rhs.kind
    }.map { $0.kind.counted($0.count) }.joined(separator: ", ")
  }

  /// `fix=2 feature=1`, for the facts' signature.
  var canonical: String { nonZero.map { "\($0.kind.rawValue)=\($0.count)" }.joined(separator: " ") }

  private struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    for (kind, count) in nonZero { try container.encode(count, forKey: Key(stringValue: kind.rawValue)) }
  }

  public init(from decoder: any Decoder) throws {
    self.init()
    let container = try decoder.container(keyedBy: Key.self)
    for key in container.allKeys {
      guard let kind = WorkKind(rawValue: key.stringValue) else { continue }
      add(kind, count: try container.decode(Int.self, forKey: key))
    }
  }
}
