import Foundation
import Testing

@testable import GitReader

/// A rebuild plans every commit from its trees, then counts each distinct file's lines once, in the order the pack
/// stores the blobs (`DiffPipeline`): every commit must get exactly the numbers it gets diffed alone.
@Suite struct DiffPipelineTests {
  /// Files edited again and again (most versions are deltas), renamed, deleted, a submodule added, moved and
  /// removed, then five commits cherry-picked onto a second branch (the same files, counted once for two commits),
  /// all packed; then more commits left loose.
  private static func history() throws -> (repository: TemporaryRepository, commits: [ObjectID], picked: [String]) {
    let repository = try TemporaryRepository()
    let script = EditedFiles.script(commits: 80, seed: 0x7069_7065, initialLines: 60) { index, edited in
      guard index % 13 == 12, let lines = edited.files.removeValue(forKey: "e.txt") else { return [] }
      // Deleted, and every other time kept under another name: an exact rename.
      guard index % 26 == 12 else { return [.delete(path: "e.txt")] }
      return [.delete(path: "e.txt"), .write(path: "old/e\(index).txt", content: EditedFiles.content(of: lines))]
    }
    try repository.importHistory(script)
    let submodule = try repository.headID()
    try repository.git("update-index", "--add", "--cacheinfo", "160000,\(submodule),vendor/lib")
    try repository.git(["commit", "-q", "-m", "Submodule"])
    try repository.git("update-index", "--force-remove", "vendor/lib")
    try repository.git("update-index", "--add", "--cacheinfo", "160000,\(submodule),vendor/lib2")
    try repository.git(["commit", "-q", "-m", "Submodule moved"])
    try repository.git("update-index", "--force-remove", "vendor/lib2")
    try repository.git(["commit", "-q", "-m", "Submodule removed"])
    // A binary file and a submodule at one path (git counts no lines), then a text file in the submodule's place
    // (its lines and the submodule's one).
    let binary = try repository.git(["hash-object", "-w", "--stdin"], input: Data("a\u{0}b\n".utf8))
      .trimmingCharacters(in: .whitespacesAndNewlines)
    try repository.git("update-index", "--add", "--cacheinfo", "100644,\(binary),data.bin")
    try repository.git(["commit", "-q", "-m", "Binary file"])
    try repository.git("update-index", "--force-remove", "data.bin")
    try repository.git("update-index", "--add", "--cacheinfo", "160000,\(submodule),data.bin")
    try repository.git(["commit", "-q", "-m", "Binary file replaced by a submodule"])
    let text = try repository.git(["hash-object", "-w", "--stdin"], input: Data("one\ntwo\n".utf8))
      .trimmingCharacters(in: .whitespacesAndNewlines)
    try repository.git("update-index", "--force-remove", "data.bin")
    try repository.git("update-index", "--add", "--cacheinfo", "100644,\(text),data.bin")
    try repository.git(["commit", "-q", "-m", "Submodule replaced by a text file"])
    let picked = try repository.git("rev-list", "--reverse", "HEAD~20..HEAD~15").split(separator: "\n")
    try repository.git("checkout", "-q", "-b", "copy", "HEAD~20")
    for id in picked { try repository.git("cherry-pick", "--allow-empty", String(id)) }
    try repository.git("checkout", "-q", "main")
    try repository.git("repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50")
    for index in 0..<5 {
      try repository.write((0..<(20 + index)).map { "loose \($0)" }.joined(separator: "\n") + "\n", to: "a.txt")
      try repository.commit(message: "Loose \(index)", date: "2026-03-30T10:0\(index):00Z")
    }
    let commits = try repository.git("rev-list", "--branches", "--no-merges").split(separator: "\n")
    return (repository, try commits.map { try #require(ObjectID(hex: String($0))) }, picked.map(String.init))
  }

  @Test func everyCommitCountsAsItsOwnDiff() throws {
    let (repository, commits, _) = try Self.history()
    #expect(commits.count == 96)
    let opened = try Repository.open(at: repository.path)
    let pipeline = DiffPipeline(repository: opened, filter: nil)
    for id in commits { pipeline.add(id, .commit(id)) }
    let pipelined = try pipeline.finish()
    #expect(pipelined.count == commits.count)
    // git's own numbers, for every commit, and the same from a handle that diffs one commit at a time.
    let logged = Dictionary(
      uniqueKeysWithValues: try repository.log(["--branches", "--no-merges"]).map { ($0.id, $0.stats) })
    let plain = try Repository.open(at: repository.path)
    for id in commits {
      #expect(pipelined[id] == logged[id.hex], "\(id)")
      let alone = try plain.diffStats(of: .commit(id))
      #expect(pipelined[id] == alone, "\(id)")
    }
    // The submodule's commits count their one line each, as git log does.
    let subjects = Dictionary(
      try repository.log(["--branches"]).map { ($0.subject, $0.stats) }, uniquingKeysWith: { first, _ in first })
    #expect(subjects["Submodule"] == DiffStats(filesChanged: 1, insertions: 1))
    #expect(subjects["Submodule moved"] == DiffStats(filesChanged: 1))
    #expect(subjects["Submodule removed"] == DiffStats(filesChanged: 1, deletions: 1))
    #expect(subjects["Binary file replaced by a submodule"] == DiffStats(filesChanged: 1))
    #expect(subjects["Submodule replaced by a text file"] == DiffStats(filesChanged: 1, insertions: 2, deletions: 1))
  }

  /// The files of the cherry-picked commits are the same as their originals': each is counted once.
  @Test func aFileChangedTheSameWayInTwoCommitsIsCountedOnce() throws {
    let (repository, _, picked) = try Self.history()
    let opened = try Repository.open(at: repository.path)
    let copies = try repository.git("rev-list", "main..copy").split(separator: "\n").map(String.init)
    #expect(picked.count == 5 && copies.count == 5)
    var plans: [DiffPlan] = []
    for id in picked + copies {
      plans.append(try opened.diffPlan(of: .commit(try #require(ObjectID(hex: String(id))))))
    }
    let all = plans.flatMap(\.work)
    let distinct = Set(all)
    #expect(distinct.count * 2 == all.count)
    let packs = PackedObjects(objectsFolder: repository.path + "/.git/objects")
    #expect(DiffPipeline.inPackOrder(Array(distinct), packs: packs).count == distinct.count)
  }

  /// Files are counted in the order of the later of their blobs in the pack; files with a blob outside the packs
  /// come last.
  @Test func filesAreCountedInThePacksOrder() throws {
    let (repository, commits, _) = try Self.history()
    let opened = try Repository.open(at: repository.path)
    var files: [FileWork] = []
    for id in commits { files += try opened.diffPlan(of: .commit(id)).work }
    files = Array(Set(files))
    let packs = PackedObjects(objectsFolder: repository.path + "/.git/objects")
    let ordered = DiffPipeline.inPackOrder(files, packs: packs).map { files[Int($0)] }
    #expect(Set(ordered) == Set(files) && ordered.count == files.count)
    func place(_ file: FileWork) -> Int? {
      let (first, second) = file.blobs
      guard let one = packs.location(of: first)?.offset ?? nil else { return nil }
      guard let second else { return one }
      return (packs.location(of: second)?.offset ?? nil).map { max(one, $0) }
    }
    let places = ordered.map(place)
    let packed = places.prefix { $0 != nil }.map { $0! }
    #expect(packed == packed.sorted())
    #expect(packed.count > 100)
    #expect(places.dropFirst(packed.count).allSatisfy { $0 == nil })
    #expect(places.count > packed.count, "the loose commits' files come last")
  }
}
