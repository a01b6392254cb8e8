import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Journal
@testable import Support

/// A record said to hold exactly some facts (`DayRecord.holds`, which a second rebuild takes instead of parsing the
/// record) reads as those facts byte for byte, whatever its bytes; one that does not is read.
@Suite struct DayRecordHoldsTests {
  static let day = Day(year: 2026, month: 11, day: 30)

  static func commit(
    _ digits: String, at time: Int64, subject: String = "Fix the sync", branch: String? = nil
  ) throws -> CommitRecord {
    CommitRecord(
      id: try #require(ObjectID(hex: String(repeating: digits, count: 20))), authorName: "Ada\tLovelace",
      authorEmail: "ada@example.com", authoredAt: time, authorOffsetMinutes: -90, subject: subject, isMerge: false,
      stats: DiffStats(filesChanged: 3, insertions: 120, deletions: 8), branch: branch)
  }

  /// Days in both formats, with escapes, other scripts, a merge, a private project, and none.
  static func examples() throws -> [DayFacts] {
    let merge = CommitRecord(
      id: try #require(ObjectID(hex: String(repeating: "cd", count: 20))), authorName: "Ada", authorEmail: "a@b.c",
      authoredAt: 1_796_046_000, authorOffsetMinutes: 60, subject: "Merge \\ naïve – 日本", isMerge: true,
      stats: .zero)
    let first = try commit("ab", at: 1_796_036_000, subject: "Fix \\ the\nsync\r conflict")
    let second = try commit("ef", at: 1_796_036_000)
    return [
      DayFacts(
        day: day,
        projects: [
          ProjectFacts(name: "notes\tapp", path: "/home/ada/notes", isPrivate: false, commits: [second, first]),
          ProjectFacts(name: "billing", path: "/srv/billing.git", isPrivate: true, commits: [merge]),
        ]),
      DayFacts(
        day: day,
        projects: [
          ProjectFacts(
            name: "app", path: "/a", isPrivate: false,
            commits: [
              try commit("12", at: day.utcMidnight - 5, branch: "feature/x\\y"),
              try commit("34", at: day.utcMidnight + 7),
            ])
        ]),
      DayFacts(day: day, projects: []),
    ]
  }

  static func bytes(of facts: DayFacts) -> [UInt8] { StateFile.bytes(of: DayRecord.records(of: facts)) }

  /// Whether `read` is `facts` with every text the same bytes (equal strings may differ in their bytes).
  static func isSameBytes(_ read: DayFacts?, _ facts: DayFacts) -> Bool {
    guard let read, read == facts else { return false }
    return zip(read.projects, facts.projects).allSatisfy { pair in
      pair.0.name.utf8.elementsEqual(pair.1.name.utf8) && pair.0.path.utf8.elementsEqual(pair.1.path.utf8)
        && zip(pair.0.commits, pair.1.commits).allSatisfy { commits in
          [\CommitRecord.authorName, \.authorEmail, \.subject].allSatisfy {
            commits.0[keyPath: $0].utf8.elementsEqual(commits.1[keyPath: $0].utf8)
          } && (commits.0.branch ?? "").utf8.elementsEqual((commits.1.branch ?? "").utf8)
        }
    }
  }

  @Test func aRecordHoldsTheFactsItWasWrittenFrom() throws {
    for facts in try Self.examples() {
      let bytes = Self.bytes(of: facts)
      #expect(DayRecord.holds(facts, bytes: bytes), "\(facts.projects.map(\.name))")
      #expect(Self.isSameBytes(DayRecord.read(bytes: bytes, day: Self.day), facts))
    }
  }

  @Test func otherFactsAreNotHeld() throws {
    let facts = try Self.examples()[0]
    let bytes = Self.bytes(of: facts)
    let project = try #require(facts.projects.first { $0.commits.count == 2 })
    let rest = facts.projects.filter { $0.path != project.path }
    func with(_ commits: [CommitRecord]) -> DayFacts {
      DayFacts(
        day: Self.day,
        projects: [ProjectFacts(name: project.name, path: project.path, isPrivate: false, commits: commits)] + rest)
    }
    var subject = project.commits[0]
    subject.subject += "!"
    var branch = project.commits[0]
    branch.branch = "main"
    var stats = project.commits[0]
    stats.stats.deletions += 1
    var merge = project.commits[0]
    merge.isMerge = true
    let others = [
      with([subject, project.commits[1]]), with([branch, project.commits[1]]), with([stats, project.commits[1]]),
      with([merge, project.commits[1]]), with([project.commits[0]]),
      with(project.commits + [try Self.commit("99", at: 1_796_136_000)]),
      DayFacts(day: Self.day, projects: rest),
      DayFacts(
        day: Self.day,
        projects: facts.projects + [
          ProjectFacts(name: "x", path: "/x", isPrivate: false, commits: [try Self.commit("77", at: 1)])
        ]),
      DayFacts(day: Self.day.adding(days: 1), projects: facts.projects),
      DayFacts(
        day: Self.day,
        projects: [ProjectFacts(name: project.name, path: project.path, isPrivate: true, commits: project.commits)]
          + rest),
      DayFacts(
        day: Self.day,
        projects: [ProjectFacts(name: project.name, path: "/elsewhere", isPrivate: false, commits: project.commits)]
          + rest),
    ]
    for other in others {
      #expect(!DayRecord.holds(other, bytes: bytes), "held other facts: \(other.projects.map(\.commits.count))")
    }
  }

  /// Every record one byte away from a written one (each byte changed, removed, or doubled), and every cut of it:
  /// whenever it is said to hold the facts, the reader reads exactly them from it.
  @Test func whatIsHeldIsWhatIsRead() throws {
    var generator = SeededGenerator(seed: 18)
    var held = 0
    for facts in try Self.examples() {
      let bytes = Self.bytes(of: facts)
      var variants: [[UInt8]] = (0...bytes.count).map { Array(bytes[..<$0]) }
      for index in bytes.indices {
        var changed = bytes
        changed[index] = [
          9, 10, 92, UInt8(ascii: "0"), UInt8(ascii: "1"), UInt8.random(in: 0...255, using: &generator),
        ]
        .randomElement(using: &generator)!
        variants.append(changed)
        var removed = bytes
        removed.remove(at: index)
        variants.append(removed)
        var doubled = bytes
        doubled.insert(bytes[index], at: index)
        variants.append(doubled)
      }
      // A field escaped where the writer would not escape it: the reader undoes it in a text, never in an id.
      let text = String(decoding: bytes, as: UTF8.self)
      for (from, to) in [("\tab", "\t\\ab"), ("\tapp\t", "\t\\app\t"), ("commit\t", "\\commit\t")] {
        variants.append(Array(text.replacingOccurrences(of: from, with: to).utf8))
      }
      for variant in variants where DayRecord.holds(facts, bytes: variant) {
        held += 1
        #expect(
          Self.isSameBytes(DayRecord.read(bytes: variant, day: Self.day), facts),
          "said to hold facts it does not read as: \(String(decoding: variant, as: UTF8.self))")
      }
    }
    // The written records themselves and what follows their end (ignored by the reader too).
    #expect(held >= 3)
  }

  /// Facts that would not read back as themselves from the record they are written as are never held by it: an
  /// empty branch reads as none. Two commits of the same time (even of the same id) read back in the order written,
  /// and are held exactly when they read back as themselves.
  @Test func factsTheReaderCannotGiveBackAreNotHeld() throws {
    let empty = DayFacts(
      day: Self.day,
      projects: [
        ProjectFacts(name: "app", path: "/a", isPrivate: false, commits: [try Self.commit("12", at: 5, branch: "")])
      ])
    #expect(!DayRecord.holds(empty, bytes: Self.bytes(of: empty)))
    let twin = try Self.commit("12", at: 5)
    var other = twin
    other.subject = "Another subject"
    let twins = DayFacts(
      day: Self.day, projects: [ProjectFacts(name: "app", path: "/a", isPrivate: false, commits: [twin, other])])
    let bytes = Self.bytes(of: twins)
    #expect(DayRecord.holds(twins, bytes: bytes) == (DayRecord.read(bytes: bytes, day: Self.day) == twins))
    let reversed = DayFacts(
      day: Self.day, projects: [ProjectFacts(name: "app", path: "/a", isPrivate: false, commits: [other, twin])])
    #expect(!DayRecord.holds(reversed, bytes: bytes))
  }

  /// The store's read by name in its folder: the facts expected when the record holds them, else the record's own,
  /// and the stamp of the file read either way.
  @Test func theStoreTakesTheExpectedFactsOnlyWhenTheRecordHoldsThem() throws {
    let scratch = try ScratchDirectory("gitjournal-records")
    let store = DayRecordStore(journalDirectory: scratch.path("journal"), host: "laptop")
    let facts = try Self.examples()[0]
    try store.write(facts, durable: false)
    let folder = OpenFolder(store.folder)
    let stamp = try #require(FileStamp(path: store.path(of: Self.day)))
    let held = store.readStamped(Self.day, in: folder, expecting: facts)
    #expect(held.facts == facts && held.stamp == stamp)
    let other = try Self.examples()[1]
    let read = store.readStamped(Self.day, in: folder, expecting: other)
    #expect(read.facts == facts && read.stamp == stamp)
    #expect(store.readStamped(Self.day.adding(days: 1), in: folder, expecting: facts) == (nil, nil))
  }

  /// The digest a rebuild keeps of the facts a record was found holding (`DayRecord.digest`) changes with every
  /// field the record keeps: short texts, long texts, numbers, flags, a branch or none, a project's fields, the day.
  @Test func theDigestTakesEveryFieldTheRecordKeeps() throws {
    let facts = try Self.examples()[0]
    let base = DayRecord.digest(of: facts)
    #expect(DayRecord.digest(of: try Self.examples()[0]) == base)
    func changing(project index: Int, commit: Int, _ change: (inout CommitRecord) -> Void) -> DayFacts {
      var projects = facts.projects
      var commits = projects[index].commits
      change(&commits[commit])
      let project = projects[index]
      projects[index] = ProjectFacts(
        name: project.name, path: project.path, isPrivate: project.isPrivate, commits: commits)
      return DayFacts(day: facts.day, projects: projects)
    }
    func changing(project index: Int, name: String? = nil, path: String? = nil, isPrivate: Bool? = nil) -> DayFacts {
      var projects = facts.projects
      let project = projects[index]
      projects[index] = ProjectFacts(
        name: name ?? project.name, path: path ?? project.path, isPrivate: isPrivate ?? project.isPrivate,
        commits: project.commits)
      return DayFacts(day: facts.day, projects: projects)
    }
    // The merge's author is "Ada", a text short enough to be kept inside the string.
    let merge = try #require(facts.projects.firstIndex { $0.commits.contains(where: \.isMerge) })
    let other = facts.projects.indices.first { $0 != merge }!
    let variants: [DayFacts] = [
      changing(project: merge, commit: 0) { $0.authorName = "Adb" },
      changing(project: merge, commit: 0) { $0.authorEmail = "a@b.d" },
      changing(project: merge, commit: 0) { $0.isMerge = false },
      changing(project: merge, commit: 0) { $0.branch = "x" },
      changing(project: other, commit: 0) { $0.id = ObjectID(hex: String(repeating: "9", count: 40))! },
      changing(project: other, commit: 0) { $0.authoredAt += 1 },
      changing(project: other, commit: 0) { $0.authorOffsetMinutes += 1 },
      changing(project: other, commit: 0) { $0.subject += "." },
      changing(project: other, commit: 0) { $0.stats.filesChanged += 1 },
      changing(project: other, commit: 0) { $0.stats.insertions += 1 },
      changing(project: other, commit: 0) { $0.stats.deletions += 1 },
      changing(project: other, commit: 1) { $0.authorName = "Ada\tLovelacf" },
      changing(project: merge, name: "billinh"),
      changing(project: merge, path: "/srv/billing.gix"),
      changing(project: merge, isPrivate: false),
      DayFacts(day: facts.day.adding(days: 1), projects: facts.projects),
      DayFacts(day: facts.day, projects: Array(facts.projects.dropFirst())),
    ]
    var digests: Set<String> = [base]
    for variant in variants {
      // Each variant is a record of other bytes, and has a digest of its own.
      #expect(Self.bytes(of: variant) != Self.bytes(of: facts))
      digests.insert(DayRecord.digest(of: variant))
    }
    #expect(digests.count == variants.count + 1, "a field the record keeps is not in its digest")
    let branched = try Self.examples()[1]
    let renamed = DayFacts(
      day: branched.day,
      projects: branched.projects.map { project in
        ProjectFacts(
          name: project.name, path: project.path, isPrivate: project.isPrivate,
          commits: project.commits.map { commit in
            var commit = commit
            if commit.branch != nil { commit.branch = "feature/z\\y" }
            return commit
          })
      })
    #expect(DayRecord.digest(of: renamed) != DayRecord.digest(of: branched))
    // A field added to a commit or a project is added to the record and to its digest.
    let commit = try #require(facts.projects.first?.commits.first)
    #expect(Mirror(reflecting: commit).children.count == 9, "CommitRecord has another field: is it in the digest?")
    let project = try #require(facts.projects.first)
    #expect(Mirror(reflecting: project).children.count == 4, "ProjectFacts has another field: is it in the digest?")
    #expect(Mirror(reflecting: commit.stats).children.count == 3, "DiffStats has another field: is it in the digest?")
    #expect(Mirror(reflecting: facts).children.count == 2, "DayFacts has another field: is it in the digest?")
    // A branch with an empty name, which a record keeps as none, is never vouched for by a digest.
    let unnamed = changing(project: merge, commit: 0) { $0.branch = "" }
    #expect(PageStamps.factsDigest(of: unnamed) == nil)
    #expect(PageStamps.factsDigest(of: facts) == base)
  }
}
