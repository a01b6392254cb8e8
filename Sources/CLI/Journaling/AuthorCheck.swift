import Facts
import GitReader
import Support

/// Whether `journal.author` still names the person who commits: a value that matches no commit empties the journal
/// at the next commit, and nothing else would say why.
enum AuthorCheck {
  /// How far back a configured author's commits are looked for.
  static let days = 30

  /// A sentence saying that the configured authors match no commit of the last `days` days in the journaled
  /// repositories while others' commits are there (naming the emails they were made with), or nil when they match
  /// one, when no author is configured (each repository's own `user.email` counts), or when nobody committed.
  static func mismatch(_ configuration: Configuration, journaling: Journaling) async -> String? {
    if case .mismatch(let sentence) = await check(configuration, journaling: journaling) { return sentence }
    return nil
  }

  /// What the last `days` days' commits say of the configured authors.
  enum Outcome: Equatable {
    /// One of them made one of the commits (or none is configured).
    case matched
    /// Others made the commits: the sentence says who and what to do.
    case mismatch(String)
    /// Nobody committed.
    case nobody
  }

  static func check(_ configuration: Configuration, journaling: Journaling) async -> Outcome {
    let authors = Set(configuration.authors.map { $0.lowercased() })
    guard !authors.isEmpty else { return .matched }
    let today = configuration.calendar.day(containing: journaling.now())
    let reading = await journaling.read(
      days: today.adding(days: 1 - days).through(today), policy: .fresh(allAuthors: true))
    var others: [String: Int] = [:]
    for facts in reading.days.values {
      for project in facts.projects {
        for commit in project.commits {
          let email = commit.authorEmail.lowercased()
          if authors.contains(email) { return .matched }
          others[email, default: 0] += 1
        }
      }
    }
    guard !others.isEmpty else { return .nobody }
    let count = others.values.reduce(0, +)
    let named = others.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(3).map(\.key)
    return .mismatch(
      "journal.author (\(configuration.authors.joined(separator: ", "))) matches none of the \(count) "
        + "\(count == 1 ? "commit" : "commits") of the last \(days) days in the journaled repositories, made as "
        + "\(named.joined(separator: ", "))\(others.count > named.count ? " and others" : ""): set it to what "
        + "'git config user.email' gives there ('gitjournal config set journal.author <email>')")
  }
}
