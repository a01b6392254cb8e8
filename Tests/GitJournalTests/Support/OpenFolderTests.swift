import Foundation
import Testing

@testable import Support

/// Files looked at by name in a folder opened once say what their whole paths would: the same stamps, the same
/// bytes, the same refusals; a folder that cannot be opened has its files looked up whole.
@Suite struct OpenFolderTests {
  let scratch: ScratchDirectory

  init() throws {
    scratch = try ScratchDirectory("gitjournal-folder")
  }

  @Test func aFileByNameIsTheFileByPath() throws {
    let folder = try scratch.makeFolder("records")
    try AtomicFile.write("day\n", to: folder + "/a.tsv")
    #expect(symlink(folder + "/a.tsv", folder + "/link.tsv") == 0)
    for open in [OpenFolder(folder), OpenFolder(scratch.path("records/"))] {
      #expect(open.stamp(of: "a.tsv") == FileStamp(path: folder + "/a.tsv"))
      #expect(open.stamp(of: "link.tsv") == FileStamp(path: folder + "/a.tsv"), "a symlink is followed")
      #expect(open.stamp(of: "missing.tsv") == nil)
      let contents = try #require(try AtomicFile.readContents("a.tsv", in: open))
      #expect(contents.bytes == Array("day\n".utf8) && contents.stamp == FileStamp(path: folder + "/a.tsv"))
      #expect(try AtomicFile.readContents("missing.tsv", in: open) == nil)
    }
  }

  @Test func aFolderThatCannotBeOpenedHasItsFilesLookedUpWhole() throws {
    let missing = OpenFolder(scratch.path("later"))
    #expect(missing.stamp(of: "a.tsv") == nil)
    // Made after the folder was looked for: found by its whole path.
    let folder = try scratch.makeFolder("later")
    try AtomicFile.write("day\n", to: folder + "/a.tsv")
    #expect(missing.stamp(of: "a.tsv") == FileStamp(path: folder + "/a.tsv"))
    #expect(try AtomicFile.readContents("a.tsv", in: missing)?.bytes == Array("day\n".utf8))
  }

  @Test func onlyARegularFileIsRead() throws {
    let folder = try scratch.makeFolder("records")
    #expect(mkfifo(folder + "/fifo.tsv", 0o644) == 0)
    #expect(mkdir(folder + "/folder.tsv", 0o755) == 0)
    let open = OpenFolder(folder)
    for name in ["fifo.tsv", "folder.tsv"] {
      #expect(throws: SystemError.self) { try AtomicFile.readContents(name, in: open) }
    }
  }

  /// The days' pages are listed with their kinds: a regular file or a symlink to one counts, a folder, a FIFO, a
  /// dangling symlink or one to a folder does not.
  @Test func regularFilesAreListedWithTheirKinds() throws {
    let folder = try scratch.makeFolder("journal")
    try AtomicFile.write("a\n", to: folder + "/file.md")
    try AtomicFile.write("b\n", to: folder + "/other.txt")
    #expect(symlink(folder + "/file.md", folder + "/link.md") == 0)
    #expect(symlink(folder + "/gone.md", folder + "/dangling.md") == 0)
    #expect(mkdir(folder + "/folder.md", 0o755) == 0)
    #expect(symlink(folder + "/folder.md", folder + "/folderlink.md") == 0)
    #expect(mkfifo(folder + "/fifo.md", 0o644) == 0)
    let listed = FolderListing.regularFiles(in: folder) { $0.hasSuffix(".md") }
    #expect(listed.sorted() == ["file.md", "link.md"])
    #expect(FolderListing.regularFiles(in: folder) { $0 == "other.txt" } == ["other.txt"])
    #expect(FolderListing.regularFiles(in: scratch.path("missing")) { _ in true }.isEmpty)
  }
}
