import Foundation
import Testing

@testable import Support

/// Folder and name of a path, as `dirname` and `basename` give them, non-ASCII names included.
@Suite struct PathTextTests {
  @Test(arguments: [
    ("/a/b/c", "/a/b", "c"), ("/a", "/", "a"), ("a", ".", "a"), ("/a/b/", "/a", "b"), ("/a//", "/", "a"),
    ("/", "/", ""), ("/journal/2026-03-10.md", "/journal", "2026-03-10.md"),
    ("/home/zoë/journal/é", "/home/zoë/journal", "é"), ("/x/e\u{301}/", "/x", "e\u{301}"),
  ])
  func folderAndName(path: String, folder: String, name: String) {
    #expect(PathText.folder(of: path) == folder, "\(path)")
    #expect(PathText.name(of: path) == name, "\(path)")
  }

  @Test(arguments: [
    ("/a/./b//c/", "/a/b/c"), ("/a/b/../c", "/a/c"), ("/../a", "/a"), ("/", "/"), ("a/../..", ".."), ("./", "."),
    ("a/b/../../c", "c"), ("/a/b/../../..", "/"),
  ])
  func standardized(path: String, expected: String) {
    #expect(PathText.standardized(path) == expected, "\(path)")
  }

  /// A relative base that does not resolve (a working folder since removed) still ends: nothing above `.` is looked
  /// for.
  @Test func aRelativeBaseThatDoesNotResolveEnds() {
    let environment = Environment(variables: ["HOME": "/nonexistent-home"], currentDirectory: "gone/folder")
    // `.` is the process's working folder: the path is made absolute there.
    #expect(environment.absolute("repo").hasSuffix("/gone/folder/repo"))
    #expect(environment.absolute("../x/./y").hasSuffix("/gone/x/y"))
  }

  /// A path that does not exist yet is resolved as far as its folders exist: a symlinked folder gives its target.
  @Test func aPathNotThereYetResolvesThroughItsFolders() throws {
    let scratch = try ScratchDirectory("gitjournal-paths")
    let real = scratch.path("real")
    try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
    #expect(symlink(real, scratch.path("link")) == 0)
    let environment = Environment(variables: ["HOME": scratch.path("link")], currentDirectory: "/")
    let resolvedReal = try #require(realpath(real, nil).map { String(cString: $0) })
    #expect(environment.absolute("~/new/./x/../repo") == resolvedReal + "/new/repo")
    #expect(environment.absolute("~") == resolvedReal)
  }
}
