import Facts
import GitReader
import Support

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The facts of one day as this machine last wrote them into the day file, kept as a small file beside the
/// journal. The day file is written from these, so a repository that cannot be read today, or is no longer
/// journaled, keeps its section as it was recorded; and a background narrator can tell whether the file still
/// holds the facts it wrote a sentence for.
///
/// One `StateFile`, in order: `day <format> <YYYY-MM-DD>`; per project `project <name> <path> <private 0|1>`
/// followed by its commits, `commit <id> <author time> <offset minutes> <merge 0|1> <files> <insertions>
/// <deletions> <author name> <author email> <subject>`, in format 2 followed by `<branch>` (empty for none);
/// then `end`. A record without its `end` line, or of a format this reader does not know, is no record: it is
/// ignored, never misread.
///
/// Records travel between machines that may run different versions. This reader reads formats 1 and 2. A day
/// whose commits have no branch is written in format 1, byte for byte as before branches were named, so an
/// older gitjournal reads it and an upgrade rewrites no record; a day with a branch is written in format 2,
/// which an older gitjournal ignores like any record of an unknown format (fails closed): that machine's pages
/// then lack this machine's share of the day until it is upgraded.
enum DayRecord {
  /// The newest layout; bumped when the layout changes.
  static let format: Int64 = 2
  /// The layout without branches, still written when a day has none.
  static let formatWithoutBranches: Int64 = 1

  static func records(of facts: DayFacts) -> [[String]] {
    let hasBranches = facts.projects.contains { $0.commits.contains { $0.branch != nil } }
    let written = hasBranches ? format : formatWithoutBranches
    var records = [["day", String(written), facts.day.description]]
    for project in facts.projects {
      records.append(["project", project.name, project.path, project.isPrivate ? "1" : "0"])
      for commit in project.commits {
        let stats = commit.stats
        var fields = [
          "commit", commit.id.hex, String(commit.authoredAt), String(commit.authorOffsetMinutes),
          commit.isMerge ? "1" : "0", String(stats.filesChanged), String(stats.insertions), String(stats.deletions),
          commit.authorName, commit.authorEmail, commit.subject,
        ]
        if hasBranches { fields.append(commit.branch ?? "") }
        records.append(fields)
      }
    }
    records.append(["end"])
    return records
  }

  /// A digest of what `records(of: facts)` holds, made from the facts' fields without writing the record: facts
  /// whose records differ in any field have different digests, but by chance (`TextDigest`). A rebuild keeps it
  /// to know that a record it found holding the facts it read still holds them (see `PageStamps.recordHolds`).
  /// Every field the record keeps is in it; a field added to the record is added here.
  static func digest(of facts: DayFacts) -> String {
    var digest = TextDigest.Builder()
    digest.add("day-record-digest-1")
    digest.add(facts.day.description)
    digest.add(Int64(facts.projects.count))
    for project in facts.projects {
      digest.add(project.name)
      digest.add(project.path)
      digest.add(project.isPrivate)
      digest.add(Int64(project.commits.count))
      // Each commit's fields read where they are, not copied out with their texts retained.
      project.commits.withUnsafeBufferPointer { commits in
        for index in commits.indices {
          commits[index].id.withBytes { digest.add(bytes: $0) }
          digest.add(commits[index].authoredAt)
          digest.add(Int64(commits[index].authorOffsetMinutes))
          digest.add(commits[index].isMerge)
          digest.add(Int64(commits[index].stats.filesChanged))
          digest.add(Int64(commits[index].stats.insertions))
          digest.add(Int64(commits[index].stats.deletions))
          digest.add(commits[index].authorName)
          digest.add(commits[index].authorEmail)
          digest.add(commits[index].subject)
          if let branch = commits[index].branch {
            digest.add(true)
            digest.add(branch)
          } else {
            digest.add(false)
          }
        }
      }
    }
    return digest.hex
  }

  /// The largest record read: a day of 100,000 commits. A record synced in from another machine is input from
  /// outside; one larger than this is refused as a whole.
  static let largestRecordBytes = 32 << 20
  /// The largest line count, file count of one commit that a record may hold: counts summed over any month then
  /// fit in `Int` whatever the records say.
  static let largestCount: Int64 = 1 << 32
  /// How far from its day's midnight (UTC) a commit of a record may be authored: a day in any time zone, with any
  /// day start, lies within two days of it.
  static let largestDistanceFromDay: Int64 = 3 * 86_400
  /// The largest author offset git writes (`+9959`), in minutes.
  static let largestOffsetMinutes: Int64 = 99 * 60 + 59

  /// The facts in the file at `path`, or nil when it holds no complete record of `day`. The file is read without
  /// following a symlink in its place, and only up to `largestRecordBytes`; a record refused for what it holds
  /// is noted with the reason (`RefusedInputs`).
  static func read(_ path: String, day: Day) -> DayFacts? {
    let contents: AtomicFile.Contents?
    do {
      contents = try AtomicFile.readOwnFile(path, largest: largestRecordBytes)
    } catch {
      if error.errorNumber != ENOENT && error.errorNumber != ENOTDIR {
        RefusedInputs.note("refused the day record \(path): \(error)", about: path)
      }
      return nil
    }
    guard let contents else { return nil }
    var problem: String?
    let facts = read(bytes: contents.bytes, day: day, problem: &problem)
    if let problem { RefusedInputs.note("refused the day record \(path): \(problem)", about: path) }
    return facts
  }

  /// Whether a commit's numbers are ones this machine could have written for the day of `midnight`.
  private static func isInRange(
    files: Int64, insertions: Int64, deletions: Int64, offset: Int64, authoredAt: Int64, midnight: Int64
  ) -> Bool {
    (0...largestCount).contains(files) && (0...largestCount).contains(insertions)
      && (0...largestCount).contains(deletions) && abs(offset) <= largestOffsetMinutes
      && authoredAt >= midnight - largestDistanceFromDay && authoredAt <= midnight + largestDistanceFromDay
  }

  /// The facts in a record's bytes, or nil when they hold no complete record of `day`.
  static func read(bytes: [UInt8], day: Day) -> DayFacts? {
    var problem: String?
    return read(bytes: bytes, day: day, problem: &problem)
  }

  /// `read(bytes:day:)`, saying in `problem` why a record whose fields are out of range was refused (a record
  /// cut short or of another format is no record, and says nothing).
  static func read(bytes: [UInt8], day: Day, problem: inout String?) -> DayFacts? {
    let midnight = day.utcMidnight
    var projects: [ProjectFacts] = []
    var project: (name: String, path: String, isPrivate: Bool)?
    var commits: [CommitRecord] = []
    var isHeaderRead = false
    var commitFields = 11
    var isComplete = false
    var isValid = true
    func closeProject() {
      if let project {
        projects.append(
          ProjectFacts(name: project.name, path: project.path, isPrivate: project.isPrivate, commits: commits))
      }
      commits = []
    }
    StateFile.read(bytes: bytes) { record in
      switch (record.text(0), isHeaderRead) {
      case ("day", false) where record.count == 3:
        let written = record.integer(1)
        isHeaderRead = (written == format || written == formatWithoutBranches) && record.text(2) == day.description
        isValid = isHeaderRead
        commitFields = written == format ? 12 : 11
      case ("project", true) where record.count == 4:
        closeProject()
        project = (record.text(1), record.text(2), record.text(3) == "1")
      case ("commit", true) where record.count == commitFields && project != nil:
        guard let id = record.objectID(1), let authoredAt = record.integer(2),
          let offset = record.integer(3), let files = record.integer(5), let insertions = record.integer(6),
          let deletions = record.integer(7), let offsetMinutes = Int(exactly: offset),
          let filesChanged = Int(exactly: files),
          let inserted = Int(exactly: insertions), let deleted = Int(exactly: deletions)
        else {
          isValid = false
          break
        }
        guard
          isInRange(
            files: files, insertions: insertions, deletions: deletions, offset: offset, authoredAt: authoredAt,
            midnight: midnight)
        else {
          problem =
            "commit \(record.text(1)) has a count, a time or an offset out of range "
            + "(files \(files), +\(insertions) -\(deletions), authored at \(authoredAt), offset \(offset) minutes)"
          isValid = false
          break
        }
        commits.append(
          CommitRecord(
            id: id, authorName: record.text(8), authorEmail: record.text(9), authoredAt: authoredAt,
            authorOffsetMinutes: offsetMinutes, subject: record.text(10), isMerge: record.text(4) == "1",
            stats: DiffStats(filesChanged: filesChanged, insertions: inserted, deletions: deleted),
            branch: commitFields == 12 && record.bytes(11).count > 0 ? record.text(11) : nil))
      case ("end", true):
        isComplete = true
      default:
        isValid = false
      }
      return isValid && !isComplete
    }
    guard isValid && isComplete else { return nil }
    closeProject()
    return DayFacts(day: day, projects: projects)
  }

  /// Whether `bytes` hold a complete record of `facts.day` that `read(bytes:day:)` would read as exactly `facts`,
  /// every text byte for byte: a second rebuild finds each day's record saying what it just read, and making the
  /// record's strings to compare them cost it a tenth of its time. Each field is compared where it lies, as the
  /// reader would take it; whatever the reader would take otherwise (another spelling of a field, a record these
  /// facts would not be written as) is said not to hold them, and is read.
  static func holds(_ facts: DayFacts, bytes: [UInt8]) -> Bool {
    let projects = facts.projects
    var projectIndex = -1
    var commitIndex = 0
    var commitFields = 0
    var isComplete = false
    var isValid = true
    // Whether the project being read had all its commits.
    func isProjectWhole() -> Bool { projectIndex < 0 || commitIndex == projects[projectIndex].commits.count }
    StateFile.read(bytes: bytes) { record in
      if commitFields == 0 {
        guard record.count == 3, record.field(0, is: "day"), let written = record.integer(1),
          written == format || written == formatWithoutBranches, record.field(2, equals: facts.day.description)
        else {
          isValid = false
          return false
        }
        commitFields = written == format ? 12 : 11
      } else if record.count == 1 && record.field(0, is: "end") {
        isComplete = true
      } else if record.count == 4 && record.field(0, is: "project") {
        guard isProjectWhole(), projectIndex + 1 < projects.count else {
          isValid = false
          return false
        }
        projectIndex += 1
        commitIndex = 0
        let project = projects[projectIndex]
        isValid =
          record.field(1, equals: project.name) && record.field(2, equals: project.path)
          && (project.isPrivate ? record.field(3, is: "1") : record.field(3, is: "0"))
      } else if record.count == commitFields && record.field(0, is: "commit") && projectIndex >= 0
        && commitIndex < projects[projectIndex].commits.count
      {
        // Looked at in place: a copy of each commit cost as much as the comparison.
        isValid = projects[projectIndex].commits.withUnsafeBufferPointer { commits in
          let commit = commits.baseAddress! + commitIndex
          // The reader sorts a project's commits by time, keeping those of one second in the order written.
          let isOrdered = commitIndex == 0 || (commit - 1).pointee.authoredAt <= commit.pointee.authoredAt
          // What the reader refuses is held by no facts.
          let stats = commit.pointee.stats
          let isReadable = isInRange(
            files: Int64(stats.filesChanged), insertions: Int64(stats.insertions), deletions: Int64(stats.deletions),
            offset: Int64(commit.pointee.authorOffsetMinutes), authoredAt: commit.pointee.authoredAt,
            midnight: facts.day.utcMidnight)
          return isOrdered && isReadable && isCommit(commit, in: record, fields: commitFields)
        }
        commitIndex += 1
      } else {
        isValid = false
      }
      return isValid && !isComplete
    }
    return isValid && isComplete && projectIndex == projects.count - 1 && isProjectWhole()
  }

  /// Whether a commit record of `fields` fields reads as `commit`. The id is compared as the hex digits written,
  /// which cost less than parsing the record's; the reader parses them as they are, escapes not undone.
  private static func isCommit(
    _ commit: UnsafePointer<CommitRecord>, in record: StateRecord, fields: Int
  ) -> Bool {
    guard record.integer(2) == commit.pointee.authoredAt,
      record.integer(3) == Int64(commit.pointee.authorOffsetMinutes),
      commit.pointee.isMerge ? record.field(4, is: "1") : record.field(4, is: "0"),
      record.integer(5) == Int64(commit.pointee.stats.filesChanged),
      record.integer(6) == Int64(commit.pointee.stats.insertions),
      record.integer(7) == Int64(commit.pointee.stats.deletions), !record.isEscaped(1),
      record.field(1, equals: commit.pointee.id.hex),
      record.field(8, equals: commit.pointee.authorName), record.field(9, equals: commit.pointee.authorEmail),
      record.field(10, equals: commit.pointee.subject)
    else { return false }
    // Only format 2 names a branch, and an empty field is none.
    guard fields == 12 else { return commit.pointee.branch == nil }
    guard let branch = commit.pointee.branch else { return record.bytes(11).isEmpty }
    return !branch.isEmpty && record.field(11, equals: branch)
  }
}
