import Foundation
import Testing

/// The branch a commit was made on, through the hook real git runs: the branch checked out names it, unless it is
/// the default branch, and the name stays in the journal after the branch is gone.
@Suite struct HookBranchTests {
  let world: HookWorld
  let repository: String

  init() throws {
    world = try HookWorld()
    repository = try world.makeInstalledRepository("code/app")
  }

  /// The journal line of `commit`, or nil.
  func line(of commit: HookCommit) -> String? {
    world.journal(commit.day)?.split(separator: "\n").first { $0.contains(commit.journalID) }.map(String.init)
  }

  @Test func theCheckedOutBranchNamesTheCommitUnlessItIsTheDefault() throws {
    let onMain = try world.commit(in: repository, "Start on main")
    try world.git(["switch", "-q", "-c", "feature/login"], in: repository)
    let onFeature = try world.commit(in: repository, "Login form")
    try world.git(["switch", "-q", "--detach"], in: repository)
    let detached = try world.commit(in: repository, "Try something")

    #expect(line(of: onMain)?.hasSuffix("(\(onMain.journalID), +1 -0)") == true, "\(line(of: onMain) ?? "none")")
    #expect(
      line(of: onFeature)?.hasSuffix("(\(onFeature.journalID) on feature/login, +1 -0)") == true,
      "\(line(of: onFeature) ?? "none")")
    #expect(line(of: detached) == nil, "no branch holds it yet: \(line(of: detached) ?? "none")")
    try world.git(["switch", "-q", "-c", "try"], in: repository)
    let kept = try world.commit(in: repository, "Keep trying")
    #expect(
      line(of: detached)?.hasSuffix("(\(detached.journalID) on try, +1 -0)") == true, "\(line(of: detached) ?? "none")")
    #expect(line(of: kept)?.hasSuffix("(\(kept.journalID) on try, +1 -0)") == true, "\(line(of: kept) ?? "none")")
    #expect(world.hookLogLines().isEmpty, "\(world.hookLogLines())")
  }

  @Test func aBranchNameWithMarkdownCharactersIsEscaped() throws {
    try world.commit(in: repository, "Start on main")
    try world.git(["switch", "-q", "-c", "odd`<b>&_x_"], in: repository)
    let commit = try world.commit(in: repository, "Odd work")
    #expect(
      line(of: commit)?.hasSuffix("(\(commit.journalID) on odd\\`&lt;b&gt;&amp;_x_, +1 -0)") == true,
      "\(line(of: commit) ?? "none")")
  }

  @Test func theNameOutlivesTheMergeAndTheBranchThroughHooksAndRebuild() throws {
    try world.commit(in: repository, "Start on main")
    try world.git(["switch", "-q", "-c", "topic"], in: repository)
    let topic = try world.commit(in: repository, "Topic work")
    try world.git(["switch", "-q", "main"], in: repository)
    try world.git(["merge", "-q", "--no-ff", "-m", "Merge topic", "topic"], in: repository)
    try world.git(["branch", "-q", "-D", "topic"], in: repository)
    let after = try world.commit(in: repository, "After the merge")

    let named = "(\(topic.journalID) on topic, +1 -0)"
    #expect(line(of: topic)?.hasSuffix(named) == true, "\(line(of: topic) ?? "none")")
    #expect(line(of: after)?.hasSuffix("(\(after.journalID), +1 -0)") == true)
    // The caches go too: the walk starts afresh, finds no branch, and the day's record keeps the name.
    try FileManager.default.removeItem(atPath: world.home + "/.cache/gitjournal")
    let rebuilt = try world.gitjournal("rebuild", "--no-narrative", in: repository)
    #expect(rebuilt.status == 0, "\(rebuilt.hookTestSummary)")
    #expect(line(of: topic)?.hasSuffix(named) == true, "\(line(of: topic) ?? "none")")
  }
}
