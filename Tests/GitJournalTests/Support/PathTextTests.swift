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

}
