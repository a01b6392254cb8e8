import Foundation
import Testing

@testable import Support

/// Whole-file writes: a new file is made unnamed and linked in whole, a file that came since it was looked at is
/// never replaced by a write that expected none, and the mode asked for is the mode the file gets.
@Suite struct AtomicFileTests {
  let scratch: ScratchDirectory

  init() throws {
    scratch = try ScratchDirectory("gitjournal-atomic")
  }

  /// A read stops at the file's size without asking once more for its end: every byte of a file of any size
  /// comes back, none more, whether it is empty, a page or bigger than the first read's room.
  @Test(arguments: [0, 1, 4095, 4096, 4097, 65_539, 1_048_581])
  func aFileReadsBackWhole(size: Int) throws {
    let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let path = scratch.path("sized-\(size)")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(try AtomicFile.readContents(path)?.bytes == bytes)
  }

  @Test func aNewFileGetsTheModeAskedForAndNoTemporaryFileIsLeft() throws {
    let path = scratch.path("new.txt")
    // Wider than the usual umask lets open() make it: the mode is set, not left to the umask.
    try AtomicFile.write("text\n", to: path, mode: 0o666)
    #expect(scratch.read("new.txt") == "text\n")
    var info = stat()
    #expect(stat(path, &info) == 0)
    #expect(info.st_mode & 0o7777 == 0o666)
    #expect(scratch.allFiles() == ["new.txt"])
  }

  @Test func theUmaskIsReadAsTheSystemHasIt() {
    // umask() tells it only by setting it: set to what it nearly always is, so files other tests make meanwhile
    // get the mode they would anyway.
    let actual = umask(0o022)
    umask(actual)
    #expect(AtomicFile.processUmask == actual)
  }

  @Test func aNewFileInAFolderWithADefaultACLGetsTheModeAskedFor() throws {
    let folder = try scratch.makeFolder("shared")
    // A default ACL of user rwx, group r-x, other none (the kernel's binary form): files made in the folder get
    // their permissions from it and not from the umask, 0640 for an open() with 0644.
    var acl: [UInt8] = [2, 0, 0, 0]
    for (tag, permissions) in [(0x01, 7), (0x04, 5), (0x20, 0)] as [(UInt16, UInt16)] {
      acl += [UInt8(tag & 0xff), UInt8(tag >> 8), UInt8(permissions), 0, 0xff, 0xff, 0xff, 0xff]
    }
    // setxattr(2), which Swift's Glibc module leaves out, from the C library (RTLD_DEFAULT is nil in glibc).
    typealias SetAttribute =
      @convention(c) (
        UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32
      ) -> Int32
    let symbol = try #require(dlsym(nil, "setxattr"))
    let setAttribute = unsafeBitCast(symbol, to: SetAttribute.self)
    let set = acl.withUnsafeBytes { setAttribute(folder, "system.posix_acl_default", $0.baseAddress, $0.count, 0) }
    try #require(set == 0, "this file system has no ACLs: errno \(errno)")
    try AtomicFile.write("text\n", to: folder + "/new.txt")
    var info = stat()
    #expect(stat(folder + "/new.txt", &info) == 0)
    #expect(info.st_mode & 0o7777 == 0o644)
  }

  @Test func aWriteExpectingNoFileLeavesOneThatCameSinceItLooked() throws {
    let path = scratch.path("page.md")
    let looked = AtomicFile.Destination(of: path)
    #expect(looked.mode == nil)
    try scratch.write("the user's note\n", to: "page.md")
    let replaced = try AtomicFile.write(
      bytes: Array("gitjournal's page\n".utf8), to: path, holdingLock: true, unlessChangedFrom: .some(nil),
      destination: looked)
    #expect(!replaced)
    #expect(scratch.read("page.md") == "the user's note\n")
    #expect(scratch.allFiles() == ["page.md"])
  }

  @Test func aWriteExpectingNothingReplacesAFileThatCameSinceItLooked() throws {
    let path = scratch.path("cache.tsv")
    let looked = AtomicFile.Destination(of: path)
    try scratch.write("old\n", to: "cache.tsv")
    #expect(try AtomicFile.write(bytes: Array("new\n".utf8), to: path, unlessChangedFrom: nil, destination: looked))
    #expect(scratch.read("cache.tsv") == "new\n")
    #expect(scratch.allFiles() == ["cache.tsv"])
  }

  @Test func theFolderIsMadeOnlyWhenItIsMissing() throws {
    let path = scratch.path("records/host/2026-03-10.tsv")
    #expect(
      try AtomicFile.write(
        bytes: Array("day\n".utf8), to: path, holdingLock: true, unlessChangedFrom: nil,
        creatingFolder: scratch.path("records/host")))
    #expect(scratch.read("records/host/2026-03-10.tsv") == "day\n")
    #expect(throws: SystemError.self) {
      try AtomicFile.write(bytes: Array("day\n".utf8), to: scratch.path("elsewhere/file"), unlessChangedFrom: nil)
    }
  }

  @Test func readingForReplacingFollowsASymlinkToWhereTheWriteLands() throws {
    try scratch.write("notes\n", to: "vault/2026-03-10.md")
    try scratch.makeFolder("journal")
    try FileManager.default.createSymbolicLink(
      atPath: scratch.path("journal/2026-03-10.md"), withDestinationPath: "../vault/2026-03-10.md")
    let (contents, destination) = try AtomicFile.readForReplacing(scratch.path("journal/2026-03-10.md"))
    #expect(contents.map { String(decoding: $0.bytes, as: UTF8.self) } == "notes\n")
    #expect(destination.isLink)
    #expect(destination.path == scratch.path("journal/../vault/2026-03-10.md"))
    #expect(destination.mode != nil)

    let plain = try AtomicFile.readForReplacing(scratch.path("vault/2026-03-10.md"))
    #expect(!plain.destination.isLink && plain.destination.path == scratch.path("vault/2026-03-10.md"))
    #expect(plain.contents?.stamp == contents?.stamp)
    let missing = try AtomicFile.readForReplacing(scratch.path("journal/2026-03-11.md"))
    #expect(missing.contents == nil && missing.destination.mode == nil && !missing.destination.isLink)
  }
}
