import CLibgit2
import Foundation
import Testing

@testable import GitReader

/// The local branches read from the files are exactly those libgit2's reference iterator gives, loose and packed,
/// and anything they cannot read is left to libgit2.
@Suite struct LocalBranchesTests {
  let repository: TemporaryRepository
  var refs: String { repository.path + "/.git/refs/heads" }

  init() throws {
    repository = try TemporaryRepository()
    try repository.commit(file: "a.txt", content: "a\n", message: "First", date: "2026-03-10T09:00:00Z")
    for branch in ["feature/x", "a/b/c", "fix", "with-dash"] { try repository.git("branch", branch) }
    try repository.commit(file: "a.txt", content: "b\n", message: "Second", date: "2026-03-10T10:00:00Z")
    try repository.git("tag", "-a", "-m", "A tag", "v1")
  }

  /// Every branch as libgit2's iterator gives it: full name and the id it points at.
  func libgit2Branches() throws -> [String: ObjectID] {
    let opened = try Repository.open(at: repository.path)
    var branches: [String: ObjectID] = [:]
    try opened.forEachLocalBranch { reference in
      guard let name = git_reference_name(reference), let id = Repository.peeledCommitID(reference) else { return }
      branches[String(cString: name)] = id
    }
    return branches
  }

  func listed() -> [String: ObjectID]? {
    LocalBranches.list(commonDirectory: repository.path + "/.git").map {
      Dictionary($0.map { ("refs/heads/" + $0.name, $0.id) }, uniquingKeysWith: { first, _ in first })
    }
  }

  func expectSameBranchTips() throws {
    let opened = try Repository.open(at: repository.path)
    let tips = try opened.branchTips()
    #expect(Set(tips.map(\.name)).count == tips.count)
    let expected = try libgit2Branches()
    #expect(Dictionary(tips.map { ("refs/heads/" + $0.name, $0.id) }, uniquingKeysWith: { $1 }) == expected)
    #expect(Set(try opened.tipIDs()).isSuperset(of: expected.values))
  }

  /// Loose branches in folders, and a file git would not name a branch but libgit2 lists all the same.
  @Test func looseBranchesInFolders() throws {
    try Data((try repository.headID() + "\n").utf8).write(to: URL(fileURLWithPath: refs + "/.hidden"))
    let found = try #require(listed())
    #expect(found.count == 6)
    let fromLibgit2 = try libgit2Branches()
    #expect(found == fromLibgit2)
    try expectSameBranchTips()
  }

  /// Packed, then some moved or deleted (loose ones hide packed ones), and a lock file being written.
  @Test func packedAndLooseTogether() throws {
    try repository.git("pack-refs", "--all")
    #expect(!FileManager.default.fileExists(atPath: refs + "/fix"))
    try repository.git("checkout", "-q", "fix")
    try repository.commit(file: "c.txt", content: "c\n", message: "On fix", date: "2026-03-10T11:00:00Z")
    try repository.git("branch", "-D", "a/b/c")
    try repository.git("branch", "new")
    try Data("0123".utf8).write(to: URL(fileURLWithPath: refs + "/main.lock"))
    let packed = try String(contentsOfFile: repository.path + "/.git/packed-refs", encoding: .utf8)
    #expect(packed.contains("\n^"), "the annotated tag's peeled line")
    let found = try #require(listed())
    #expect(found.count == 5 && found["refs/heads/new"] != nil && found["refs/heads/a/b/c"] == nil)
    let fromLibgit2 = try libgit2Branches()
    #expect(found == fromLibgit2)
    try expectSameBranchTips()
  }

  /// `git pack-refs` between the read of `packed-refs` and the read of the loose refs: it writes the new
  /// `packed-refs`, then deletes the loose refs it packed. No branch goes missing from the listing.
  @Test func packingBetweenTheTwoReadsLosesNoBranch() throws {
    let expected = try #require(listed())
    #expect(expected.count == 5)
    var packings = 0
    let found = LocalBranches.list(commonDirectory: repository.path + "/.git") {
      guard packings == 0 else { return }
      packings += 1
      _ = try? repository.git("pack-refs", "--all")
    }
    #expect(packings == 1)
    #expect(!FileManager.default.fileExists(atPath: refs + "/fix"), "the loose refs are gone")
    let names = Dictionary((found ?? []).map { ("refs/heads/" + $0.name, $0.id) }, uniquingKeysWith: { $1 })
    #expect(names == expected)
  }

  /// The same race made by hand, as a file system would show it to a reader that reads `packed-refs` first: a new
  /// `packed-refs` renamed into place, then the loose ref deleted, after every read of `packed-refs` until the
  /// reader gives up; libgit2 is asked then, and still no branch is missing.
  @Test func packedRefsSwappedAtEveryReadLeavesItToLibgit2() throws {
    let expected = try #require(listed())
    let gitDirectory = repository.path + "/.git"
    var swaps = 0
    let found = LocalBranches.list(commonDirectory: gitDirectory) {
      swaps += 1
      // Each swap packs one loose branch more, then deletes its loose file, as `git pack-refs` does.
      let packed = expected.sorted { $0.key < $1.key }.prefix(swaps).map { "\($0.value.hex) \($0.key)\n" }.joined()
      let staged = gitDirectory + "/packed-refs.new"
      FileManager.default.createFile(atPath: staged, contents: Data(("# pack-refs with: peeled \n" + packed).utf8))
      _ = rename(staged, gitDirectory + "/packed-refs")
      if let name = expected.keys.sorted().dropFirst(swaps - 1).first {
        try? FileManager.default.removeItem(atPath: gitDirectory + "/" + name)
      }
    }
    #expect(found == nil, "the reader gives up and leaves the listing to libgit2")
    #expect(swaps == LocalBranches.readsWhilePacking)
    let tips = try Repository.open(at: repository.path).branchTips()
    #expect(Dictionary(tips.map { ("refs/heads/" + $0.name, $0.id) }, uniquingKeysWith: { $1 }) == expected)
  }

  /// No `refs/heads` folder at all: every branch is packed.
  @Test func noLooseFolder() throws {
    try repository.git("pack-refs", "--all")
    try? FileManager.default.removeItem(atPath: refs)
    let found = try #require(listed())
    #expect(found == (try libgit2Branches()) && found.count == 5)
  }

  /// What the files cannot tell is left to libgit2, whose answer stands.
  @Test(arguments: ["symbolic", "garbage", "upper case", "symlink", ".git"])
  func whatTheFilesCannotTellIsLeftToLibgit2(_ kind: String) throws {
    let head = try repository.headID()
    switch kind {
    case "symbolic": try repository.git("symbolic-ref", "refs/heads/alias", "refs/heads/main")
    case "garbage": try Data("not an id\n".utf8).write(to: URL(fileURLWithPath: refs + "/broken"))
    case "upper case": try Data((head.uppercased() + "\n").utf8).write(to: URL(fileURLWithPath: refs + "/upper"))
    case "symlink": #expect(symlink(refs + "/main", refs + "/linked") == 0)
    default: try Data((head + "\n").utf8).write(to: URL(fileURLWithPath: refs + "/feature/.git"))
    }
    #expect(listed() == nil)
    try expectSameBranchTips()
  }

  /// A FIFO where a ref would be is skipped without being opened, as libgit2 skips it: opening it would wait for a
  /// writer, in a hook.
  @Test func aFIFOIsSkipped() throws {
    #expect(mkfifo(refs + "/pipe", 0o644) == 0)
    let found = try #require(listed())
    #expect(found.count == 5 && found["refs/heads/pipe"] == nil)
    let fromLibgit2 = try libgit2Branches()
    #expect(found == fromLibgit2)
  }

  /// A folder of more ref files than one thread reads (a clone with its pull requests as branches) is read on
  /// several, each file still under its own name and id; one file among them that holds no id still leaves the
  /// whole listing to libgit2.
  @Test func manyBranchesInOneFolder() throws {
    let second = try repository.headID()
    let first = try repository.git("rev-parse", "HEAD~1").trimmingCharacters(in: .whitespacesAndNewlines)
    let count = 3 * LocalBranches.filesPerThread + 7
    try FileManager.default.createDirectory(atPath: refs + "/pr", withIntermediateDirectories: true)
    for number in 0..<count {
      let id = number % 3 == 0 ? first : second
      try Data((id + "\n").utf8).write(to: URL(fileURLWithPath: refs + "/pr/\(number)"))
    }
    let found = try #require(listed())
    #expect(found.count == count + 5)
    #expect(found["refs/heads/pr/300"]?.hex == first && found["refs/heads/pr/301"]?.hex == second)
    let fromLibgit2 = try libgit2Branches()
    #expect(found == fromLibgit2)
    try expectSameBranchTips()

    try Data("not an id\n".utf8).write(to: URL(fileURLWithPath: refs + "/pr/\(count / 2)"))
    #expect(listed() == nil)
    try expectSameBranchTips()
  }
}
