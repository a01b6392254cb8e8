import Facts
import Foundation
import GitReader

/// The facts of one day as this machine last wrote them into the day file, kept as a small JSON file beside
/// the journal. The day file is rendered from these, so a repository that cannot be read today, or is no
/// longer journaled, keeps its section as it was recorded; and a background narrator can tell whether the
/// file still holds the facts it wrote a sentence for.
struct DayRecord: Codable, Equatable {
  /// Bumped when the layout changes; a record of another format is ignored, never misread.
  static let currentFormat = 1

  var format: Int
  var day: Day
  var projects: [Project]

  struct Project: Codable, Equatable {
    var name: String
    var path: String
    var isPrivate: Bool
    var commits: [Commit]
  }

  struct Commit: Codable, Equatable {
    var id: ObjectID
    var authorName: String
    var authorEmail: String
    var authoredAt: Int64
    var authorOffsetMinutes: Int
    var subject: String
    var isMerge: Bool
    var filesChanged: Int
    var insertions: Int
    var deletions: Int
  }

  init(_ facts: DayFacts) {
    format = Self.currentFormat
    day = facts.day
    projects = facts.projects.map { project in
      Project(
        name: project.name, path: project.path, isPrivate: project.isPrivate,
        commits: project.commits.map { commit in
          Commit(
            id: commit.id, authorName: commit.authorName, authorEmail: commit.authorEmail,
            authoredAt: commit.authoredAt, authorOffsetMinutes: commit.authorOffsetMinutes, subject: commit.subject,
            isMerge: commit.isMerge, filesChanged: commit.stats.filesChanged, insertions: commit.stats.insertions,
            deletions: commit.stats.deletions)
        })
    }
  }

  var facts: DayFacts {
    DayFacts(
      day: day,
      projects: projects.map { project in
        ProjectFacts(
          name: project.name, path: project.path, isPrivate: project.isPrivate,
          commits: project.commits.map { commit in
            CommitRecord(
              id: commit.id, authorName: commit.authorName, authorEmail: commit.authorEmail,
              authoredAt: commit.authoredAt, authorOffsetMinutes: commit.authorOffsetMinutes, subject: commit.subject,
              isMerge: commit.isMerge,
              stats: DiffStats(
                filesChanged: commit.filesChanged, insertions: commit.insertions, deletions: commit.deletions))
          })
      })
  }

  /// Sorted keys and no extra spaces: the same facts give the same bytes on every machine.
  func encoded() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Encoding plain strings and integers cannot fail.
    let data = (try? encoder.encode(self)) ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  /// Nil for text that is not a record of the current format.
  static func decode(_ text: String) -> DayRecord? {
    guard let record = try? JSONDecoder().decode(DayRecord.self, from: Data(text.utf8)),
      record.format == currentFormat
    else { return nil }
    return record
  }
}
