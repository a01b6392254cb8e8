import Foundation
import Testing

@testable import GitReader
@testable import Support

/// The bundle of stored reads (`StampedReadBundle`): each copy answers only for its own folder and only while its
/// stamps hold (`StampedReadTests.stampedReadsEqualFullReads` with seed 13 changes the repository behind it), and
/// a bundle cut short or made from damaged files never answers wrongly.
@Suite struct StampedReadBundleTests {
  typealias World = StampedReadTests.World

  /// Three repositories whose stored reads share one cache, each with another number of commits in the span.
  static func worlds() throws -> [World] {
    let worlds = try (0..<3).map { _ in try World() }
    for (index, world) in worlds.enumerated() {
      world.cache = worlds[0].cache
      for commit in 0..<index { try world.commit("Commit \(commit)") }
      try world.settle()
      #expect(world.isStamped)
    }
    return worlds
  }

  static func copy(of world: World, in bundle: StampedReadBundle?, position: Int) -> [CommitRecord]? {
    guard let bundle else { return nil }
    let read = world.scan(stamped: true).stampedRead(
      authoredFrom: StampedReadTests.dayStart, to: StampedReadTests.dayEnd)
    return read?.current(in: bundle, position: position).map { World.withoutBranches($0.commits) }
  }

  @Test func eachCopyAnswersForItsOwnFolderWhereverItIs() throws {
    let worlds = try Self.worlds()
    StampedReadBundle.write(roots: worlds.map(\.root), cacheDirectory: worlds[0].cache)
    let bundle = try #require(StampedReadBundle(cacheDirectory: worlds[0].cache))
    for (index, world) in worlds.enumerated() {
      let full = try world.full()
      #expect(full.count == index + 1)
      #expect(Self.copy(of: world, in: bundle, position: index) == full)
      // The position is only where the copy likely is.
      #expect(Self.copy(of: world, in: bundle, position: 2 - index) == full)
      #expect(Self.copy(of: world, in: bundle, position: 99) == full)
    }
    // A folder the bundle has no copy of.
    let other = try World()
    other.cache = worlds[0].cache
    try other.settle()
    #expect(Self.copy(of: other, in: bundle, position: 0) == nil)
    // A copy whose repository moved since does not answer; its own stored read, made again, does.
    try worlds[1].commit("Later")
    #expect(Self.copy(of: worlds[1], in: bundle, position: 1) == nil)
    #expect(try worlds[1].hooked() == worlds[1].full())
    let full = try worlds[2].full()
    #expect(Self.copy(of: worlds[2], in: bundle, position: 2) == full)
  }

  /// Cut anywhere, the bundle answers for the copies wholly before the cut and for no other.
  @Test func aBundleCutShortAnswersOnlyForWholeCopies() throws {
    let worlds = try Self.worlds()
    StampedReadBundle.write(roots: worlds.map(\.root), cacheDirectory: worlds[0].cache)
    let path = StampedReadBundle.path(in: worlds[0].cache)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let ends = (0..<bytes.count - 3).filter { bytes[$0..<($0 + 4)].elementsEqual("end\n".utf8) }.map { $0 + 4 }
    #expect(ends.count == 3 && ends.last == bytes.count)
    let fulls = try worlds.map { try $0.full() }
    for cut in Array(stride(from: 0, to: bytes.count, by: 61)) + ends.map({ $0 - 1 }) + ends {
      try Data(bytes[..<cut]).write(to: URL(fileURLWithPath: path))
      let bundle = StampedReadBundle(cacheDirectory: worlds[0].cache)
      for (index, world) in worlds.enumerated() {
        let expected = ends[index] <= cut ? fulls[index] : nil
        #expect(Self.copy(of: world, in: bundle, position: index) == expected, "cut at \(cut), copy \(index)")
      }
    }
  }

  /// A header that is not one, or a length past the end, ends the copies there; a copy that does not begin with a
  /// `read` record is skipped.
  @Test func aBundleWithABadHeaderAnswersOnlyBeforeIt() throws {
    let worlds = try Self.worlds()
    StampedReadBundle.write(roots: worlds.map(\.root), cacheDirectory: worlds[0].cache)
    let path = StampedReadBundle.path(in: worlds[0].cache)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let headers = text.split(separator: "\n").filter { $0.hasPrefix("copy\t") }.map(String.init)
    #expect(headers.count == 3)
    let fulls = try worlds.map { try $0.full() }
    let cases: [(String, [Bool])] = [
      (text.replacingOccurrences(of: headers[1], with: "copy\tx1"), [true, false, false]),
      (text.replacingOccurrences(of: headers[0], with: "copy\t99999999"), [false, false, false]),
      (text.replacingOccurrences(of: headers[2], with: "kopy" + headers[2].dropFirst(4)), [true, true, false]),
      (text.replacingOccurrences(of: "read\t" + worlds[1].root, with: "reed\t" + worlds[1].root), [true, false, true]),
    ]
    for (damaged, answers) in cases {
      try damaged.write(toFile: path, atomically: false, encoding: .utf8)
      let bundle = StampedReadBundle(cacheDirectory: worlds[0].cache)
      for (index, world) in worlds.enumerated() {
        let expected = answers[index] ? fulls[index] : nil
        #expect(Self.copy(of: world, in: bundle, position: index) == expected, "\(answers), copy \(index)")
      }
    }
  }

  /// A folder whose name holds a character a field escapes has no copy that answers; its own stored read does.
  @Test func aFolderWhoseNameIsEscapedIsReadFromItsOwnFile() throws {
    let world = try World()
    let folder = world.repository.owner.path("back\\slash\tand tab")
    try world.repository.git(["clone", "-q", world.repository.path, folder])
    world.root = folder
    try world.settle()
    world.bundle()
    let (outcome, fromBundle) = world.bundledOutcome()
    #expect(!fromBundle)
    #expect(try outcome.get() == world.full())
    #expect(world.isStamped)
  }

  /// Making the bundle removes the stored reads of earlier formats, and only gitjournal's own files there.
  @Test func earlierFormatsAreRemovedWithTheBundle() throws {
    let worlds = try Self.worlds()
    let cache = worlds[0].cache
    for (folder, names) in [
      ("reads-v1", ["a.tsv", "notes.txt"]), ("reads-v2", ["b.tsv"]), ("reads-v3", ["c.tsv", "d.tsv"]),
    ] {
      try FileManager.default.createDirectory(atPath: cache + "/" + folder, withIntermediateDirectories: true)
      for name in names { try "x".write(toFile: cache + "/" + folder + "/" + name, atomically: false, encoding: .utf8) }
    }
    StampedReadBundle.write(roots: worlds.map(\.root), cacheDirectory: cache)
    #expect(try FileManager.default.contentsOfDirectory(atPath: cache + "/reads-v1") == ["notes.txt"])
    #expect(!FileManager.default.fileExists(atPath: cache + "/reads-v2"))
    #expect(!FileManager.default.fileExists(atPath: cache + "/reads-v3"))
    #expect(StampedReadBundle(cacheDirectory: cache) != nil)
    #expect(try worlds[0].hooked() == worlds[0].full())
  }

  /// A folder whose stored read is missing or cut short is left out of a new bundle; the others are in it.
  @Test func aDamagedStoredReadIsLeftOut() throws {
    let worlds = try Self.worlds()
    let cache = worlds[0].cache
    unlink(StampedRead.path(in: cache, of: worlds[0].root))
    let cutPath = StampedRead.path(in: cache, of: worlds[1].root)
    let whole = try Data(contentsOf: URL(fileURLWithPath: cutPath))
    try whole.dropLast(4).write(to: URL(fileURLWithPath: cutPath))
    StampedReadBundle.write(roots: worlds.map(\.root), cacheDirectory: cache)
    let text = try String(contentsOfFile: StampedReadBundle.path(in: cache), encoding: .utf8)
    let copied = text.split(separator: "\n").filter { $0.hasPrefix("read\t") }.map(String.init)
    #expect(copied == ["read\t" + worlds[2].root])
    // Empty copies in their places, so that the others stay where the repositories' order says.
    let headers = text.split(separator: "\n").filter { $0.hasPrefix("copy\t") }
    #expect(headers.count == 3 && headers[0] == "copy\t0" && headers[1] == "copy\t0" && headers[2] != "copy\t0")
    let bundle = StampedReadBundle(cacheDirectory: cache)
    let full = try worlds[2].full()
    #expect(Self.copy(of: worlds[2], in: bundle, position: 2) == full)
    #expect(Self.copy(of: worlds[1], in: bundle, position: 1) == nil)
    // Nothing left to copy: no bundle.
    for world in worlds { unlink(StampedRead.path(in: cache, of: world.root)) }
    StampedReadBundle.write(roots: worlds.map(\.root), cacheDirectory: cache)
    #expect(!FileManager.default.fileExists(atPath: StampedReadBundle.path(in: cache)))
  }

  /// gitjournal makes the bundle by rename, never a symlink: one in its place is not followed, and is replaced by
  /// the next bundle rather than written through (else every reading would find no bundle and make one).
  @Test func aSymlinkInTheBundlesPlaceIsNotReadAndIsReplaced() throws {
    let worlds = try Self.worlds()
    let cache = worlds[0].cache
    StampedReadBundle.write(roots: worlds.map(\.root), cacheDirectory: cache)
    let path = StampedReadBundle.path(in: cache)
    let elsewhere = path + ".elsewhere"
    #expect(rename(path, elsewhere) == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: elsewhere))
    #expect(symlink(elsewhere, path) == 0)
    #expect(StampedReadBundle(cacheDirectory: cache) == nil)
    StampedReadBundle.write(roots: worlds.map(\.root), cacheDirectory: cache)
    var info = stat()
    #expect(lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)
    #expect(try Data(contentsOf: URL(fileURLWithPath: elsewhere)) == before, "the link's target was written")
    #expect(StampedReadBundle(cacheDirectory: cache) != nil)
  }

  /// A folder in the bundle's place is left there and no bundle is made (nor read); a file larger than the bundle
  /// can be is refused before it is read.
  @Test func aFolderOrAHugeFileInTheBundlesPlaceIsNoBundle() throws {
    let worlds = try Self.worlds()
    let cache = worlds[0].cache
    let path = StampedReadBundle.path(in: cache)
    #expect(mkdir(path, 0o755) == 0)
    StampedReadBundle.write(roots: worlds.map(\.root), cacheDirectory: cache)
    var info = stat()
    #expect(lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR)
    #expect(StampedReadBundle(cacheDirectory: cache) == nil)
    #expect(rmdir(path) == 0)
    // A sparse file: its size is read, none of its bytes.
    let descriptor = open(path, O_WRONLY | O_CREAT, 0o644)
    #expect(descriptor >= 0 && ftruncate(descriptor, off_t(StampedReadBundle.largestSize + 1)) == 0)
    close(descriptor)
    #expect(StampedReadBundle(cacheDirectory: cache) == nil)
  }
}
