import Foundation
import Testing

@testable import Facts

/// The hook's files, `show` of a day, a range, a week and `rebuild` all name the same commits: on a line of history
/// whose committer dates go backwards (an import, `git am`, `git rebase --committer-date-is-author-date`), where the
/// day's commit lies below commits committed days before it, and for a commit made on a detached HEAD, which counts
/// once a branch holds it.
@Suite struct EveryViewAgreesTests {
  let world: HookWorld
  let repository: String

  init() throws {
    world = try HookWorld()
    repository = try world.makeInstalledRepository("code/app")
  }

  private func day(_ arguments: String...) throws -> DayReport {
    let result = try world.run(world.binary, ["show"] + arguments + ["--json"], in: repository)
    guard result.status == 0 else { throw ScratchError("show \(arguments) failed: \(result.hookTestSummary)") }
    return try JSONDecoder().decode(DayReport.self, from: Data(result.standardOutput.utf8))
  }

  private func range(_ arguments: String...) throws -> RangeReport {
    let result = try world.run(world.binary, ["show"] + arguments + ["--json"], in: repository)
    guard result.status == 0 else { throw ScratchError("show \(arguments) failed: \(result.hookTestSummary)") }
    return try JSONDecoder().decode(RangeReport.self, from: Data(result.standardOutput.utf8))
  }

  /// Every view of every day from `first` on names exactly `expected` (commits by day).
  private func expectAgreement(_ expected: [String: [HookCommit]], since first: String) throws {
    let report = try range("--since", first)
    for reported in report.days {
      let commits = expected[reported.date] ?? []
      let ids = Set(commits.map(\.id))
      #expect(Set(reported.projects.flatMap(\.commits).map(\.id.hex)) == ids, "range, \(reported.date)")
      let shown = try day(reported.date)
      #expect(Set(shown.projects.flatMap(\.commits).map(\.id.hex)) == ids, "show \(reported.date)")
      let file = world.journal(reported.date) ?? ""
      for commit in commits { #expect(file.contains(commit.journalID), "file of \(reported.date): \(commit.subject)") }
      #expect(HookWorld.count("(`", in: file) == commits.count, "file of \(reported.date): \(file)")
      let week = try range("--week", reported.date)
      #expect(week.days.first { $0.date == reported.date }?.commitCount == commits.count, "week of \(reported.date)")
    }
    #expect(report.commitCount == expected.values.reduce(0) { $0 + $1.count })
  }

  @Test func aDayBelowAnOlderCommitIsInEveryView() throws {
    let yesterday = HookWorld.gitDate(HookWorld.pastDate(daysAgo: 1, hour: 11))
    let work1 = try world.commit(in: repository, "Work 1 days ago", authorDate: yesterday, committerDate: yesterday)
    let threeDaysAgo = HookWorld.gitDate(HookWorld.pastDate(daysAgo: 3, hour: 11))
    let work3 = try world.commit(
      in: repository, "Work 3 days ago", authorDate: threeDaysAgo, committerDate: threeDaysAgo)
    let now = try world.commit(in: repository, "Work now")
    let expected = Dictionary(grouping: [work1, work3, now], by: \.day)
    try expectAgreement(expected, since: work3.day)

    // A rebuild of the one day, and of them all, reads the same commits again.
    #expect(try world.gitjournal("rebuild", work1.day, in: repository).status == 0)
    try expectAgreement(expected, since: work3.day)
    #expect(try world.gitjournal("rebuild", "--since", work3.day, in: repository).status == 0)
    try expectAgreement(expected, since: work3.day)
  }

  /// The line goes back by more than one step: the day's commit is two commits below the first older one, which is
  /// itself no newer than its parent.
  @Test func aDayTwoStepsBelowOlderCommitsIsInEveryView() throws {
    let dates = [(1, "Work 1 days ago"), (4, "Work 4 days ago"), (3, "Work 3 days ago")].map { daysAgo, subject in
      (HookWorld.gitDate(HookWorld.pastDate(daysAgo: daysAgo, hour: 10)), subject)
    }
    var commits: [HookCommit] = []
    for (date, subject) in dates {
      commits.append(try world.commit(in: repository, subject, authorDate: date, committerDate: date))
    }
    commits.append(try world.commit(in: repository, "Work now"))
    // Caches made by the hooks are set aside: a first reading meets the whole history at once.
    try? FileManager.default.removeItem(atPath: world.home + "/.cache")
    #expect(try world.gitjournal("rebuild", commits[0].day, in: repository).status == 0)
    try expectAgreement(Dictionary(grouping: commits, by: \.day), since: commits[1].day)
  }

  /// An ordinary history, committed in order, keeps no late commit: the hook reads nothing more for it.
  @Test func anOrdinaryHistoryHasNoLateCommits() throws {
    for hour in [9, 10, 11] {
      let date = HookWorld.gitDate(HookWorld.pastDate(daysAgo: 2, hour: hour))
      try world.commit(in: repository, "Work at \(hour)", authorDate: date, committerDate: date)
    }
    try world.commit(in: repository, "Work now")
    let files = try FileManager.default.subpathsOfDirectory(atPath: world.home + "/.cache").filter {
      $0.hasSuffix("/late.tsv")
    }
    try #require(!files.isEmpty, "the hook keeps the list")
    for file in files {
      let text = try String(contentsOfFile: world.home + "/.cache/" + file, encoding: .utf8)
      #expect(text.split(separator: "\n").count == 1, "only the tips: \(text)")
    }
  }

  /// A commit on a detached HEAD is in no view while no branch reaches it, stays out when HEAD moves on, and is in
  /// every view, on the day it was authored, once a branch holds it.
  @Test func aDetachedCommitCountsOnceABranchHoldsIt() throws {
    let first = try world.commit(in: repository, "Work on main")
    try world.git(["switch", "-q", "--detach"], in: repository)
    let detached = try world.commit(in: repository, "Detached work")
    try expectAgreement([first.day: [first]], since: first.day)
    try world.git(["switch", "-q", "-"], in: repository)
    let second = try world.commit(in: repository, "More work on main")
    try expectAgreement([first.day: [first, second]], since: first.day)
    #expect(try world.gitjournal("rebuild", in: repository).status == 0)
    try expectAgreement([first.day: [first, second]], since: first.day)

    try world.git(["branch", "kept", detached.id], in: repository)
    let third = try world.commit(in: repository, "Last work on main")
    try expectAgreement([first.day: [first, detached, second, third]], since: first.day)
    #expect(try world.gitjournal("rebuild", in: repository).status == 0)
    try expectAgreement([first.day: [first, detached, second, third]], since: first.day)
  }

  /// Commits made in one second are listed in history order, a parent before its child, in the file, `show` and a
  /// rebuild, whatever their ids.
  @Test func commitsOfOneSecondAreInHistoryOrder() throws {
    let date = HookWorld.gitDate(HookWorld.pastDate(daysAgo: 0, hour: 0, minute: 30))
    var commits: [HookCommit] = []
    // Until their ids are out of history order (at most a few commits more).
    while commits.count < 3 || commits.map(\.id) == commits.map(\.id).sorted(), commits.count < 12 {
      commits.append(
        try world.commit(in: repository, "Step \(commits.count + 1)", authorDate: date, committerDate: date))
    }
    try #require(commits.map(\.id) != commits.map(\.id).sorted())
    let day = commits[0].day
    func fileOrder() -> [String] {
      let lines = (world.journal(day) ?? "").split(separator: "\n")
      return lines.compactMap { line in commits.first { line.contains($0.journalID) }?.id }
    }
    #expect(fileOrder() == commits.map(\.id))
    #expect(try self.day(day).projects.flatMap(\.commits).map(\.id.hex) == commits.map(\.id))
    #expect(try range("--since", day).days.last?.projects.flatMap(\.commits).map(\.id.hex) == commits.map(\.id))
    try? FileManager.default.removeItem(atPath: world.home + "/.cache")
    #expect(try world.gitjournal("rebuild", day, in: repository).status == 0)
    #expect(fileOrder() == commits.map(\.id))
    #expect(try self.day(day).projects.flatMap(\.commits).map(\.id.hex) == commits.map(\.id))
  }
}
