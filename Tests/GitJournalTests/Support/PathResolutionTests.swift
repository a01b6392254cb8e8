import Foundation
import Testing

@testable import Support

/// `Environment.absolute` resolves an existing folder through the kernel (`resolvedFolder`) where it used
/// realpath(3): both must name the same folder for every kind of path a config can hold.
@Suite struct PathResolutionTests {
  let scratch: ScratchDirectory

  init() throws { scratch = try ScratchDirectory("gitjournal-resolve") }

  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  @Test func foldersResolveAsRealpathResolvesThem() throws {
    let real = try scratch.makeFolder("code/real app")
    _ = try scratch.makeFolder("code/other")
    try FileManager.default.createSymbolicLink(atPath: scratch.path("link"), withDestinationPath: scratch.path("code"))
    try FileManager.default.createSymbolicLink(atPath: scratch.path("relative"), withDestinationPath: "code/real app")
    let paths = [
      real, scratch.path("link/real app"), scratch.path("relative"), scratch.path("code/other/../real app"),
      scratch.path("link/other/../real app/"), scratch.path("code//real app"), "/",
    ]
    for path in paths {
      #expect(Environment.resolvedFolder(path) == Self.realPath(path), "\(path)")
      #expect(Environment.resolvedFolder(path) != nil, "\(path)")
    }
  }

  /// A plain path (absolute, no empty, `.` or `..` part, no `/` at the end) is proved to name its folder by one
  /// opening that refuses symbolic links; anything else, or a plain path with a link in it, is resolved whole.
  @Test func plainPathsAreTold() {
    for path in ["/", "/a", "/a/b", "/a/.b", "/a/b.", "/a/...", "/a/..b/c", "/.config"] {
      #expect(Environment.isPlain(path), "\(path)")
    }
    for path in ["", "a", "a/b", "//", "/a/", "/a//b", "/.", "/..", "/a/.", "/a/..", "/a/./b", "/a/../b", "~/a"] {
      #expect(!Environment.isPlain(path), "\(path)")
    }
  }

  @Test func aLinkInAPlainPathIsResolved() throws {
    let real = try scratch.makeFolder("code/app")
    try FileManager.default.createSymbolicLink(atPath: scratch.path("link"), withDestinationPath: scratch.path("code"))
    try FileManager.default.createSymbolicLink(atPath: scratch.path("code/last"), withDestinationPath: real)
    let resolved = try #require(Self.realPath(real))
    for path in [scratch.path("link/app"), scratch.path("code/last"), scratch.path("link/last"), resolved] {
      #expect(Environment.isPlain(path))
      #expect(Environment.resolvedFolder(path) == resolved, "\(path)")
    }
  }

  /// Anything but an existing folder is left to realpath(3) and Foundation: a file, a missing path, and a FIFO,
  /// which must not block the hook.
  @Test func otherPathsAreNotResolvedHere() throws {
    try Data("x".utf8).write(to: URL(fileURLWithPath: scratch.path("file")))
    _ = try scratch.makeFolder("code/other")
    #expect(mkfifo(scratch.path("fifo"), 0o644) == 0)
    for name in ["file", "missing", "fifo", "missing/deeper"] {
      #expect(Environment.resolvedFolder(scratch.path(name)) == nil, "\(name)")
    }
    let environment = Environment(variables: ["HOME": scratch.path("code")], currentDirectory: scratch.path)
    #expect(environment.absolute("file") == Self.realPath(scratch.path("file")))
    #expect(environment.absolute("~/other") == Self.realPath(scratch.path("code/other")))
    #expect(environment.absolute("~") == Self.realPath(scratch.path("code")))
    // Only "~" and "~/" are the home folder: "~other" is a name in the current folder.
    #expect(environment.absolute("~other") == Self.realPath(scratch.path).map { $0 + "/~other" })
    #expect(environment.absolute("not/yet") == Self.realPath(scratch.path).map { $0 + "/not/yet" })
  }

  /// A config's list of paths is resolved in runs on several threads once it is long: each path as it is resolved
  /// alone, in order, empty ones left empty.
  @Test(arguments: [0, 1, 49, 50, 51, 137])
  func aListResolvesAsEachPathAlone(count: Int) throws {
    _ = try scratch.makeFolder("code/real")
    try FileManager.default.createSymbolicLink(atPath: scratch.path("link"), withDestinationPath: scratch.path("code"))
    let environment = Environment(variables: ["HOME": scratch.path("code")], currentDirectory: "/")
    let kinds = ["link/real", "~/real", "missing", "", "code/real/../real", scratch.path("link")]
    let paths = (0..<count).map { kinds[$0 % kinds.count] }
    let one = paths.map { $0.isEmpty ? "" : environment.absolute($0, relativeTo: scratch.path) }
    #expect(environment.absolute(paths, relativeTo: scratch.path) == one)
    #expect(one.allSatisfy { !$0.contains("link") }, "the symlink was not resolved")
  }
}
