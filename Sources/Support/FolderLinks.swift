#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Symlinks among the folders inside a root gitjournal writes (the journal folder): the root itself may be a link (a
/// synced folder kept elsewhere), but a folder in it that is one would have gitjournal read and write wherever a sync
/// tool pointed it. Looked at with `lstat`, a call for each folder between the root and the file.
package enum FolderLinks {
  /// The first folder of `path` below `root` that is a symlink, or nil; folders not there yet are none (they are
  /// made as folders). A path outside `root` has none.
  package static func firstLink(in path: String, below root: String) -> String? {
    guard path.hasPrefix(root + "/") else { return nil }
    var current = root
    var info = stat()
    for component in path.dropFirst(root.count + 1).split(separator: "/") {
      // A String, not the Substring: appending that is generic, and its first use on the hook's path made the runtime
      // look through every conformance (BENCHMARKS.md, the hook).
      current += "/" + String(component)
      guard lstat(current, &info) == 0 else { return nil }
      if info.st_mode & S_IFMT == S_IFLNK { return current }
    }
    return nil
  }

  /// Throws, naming the link, when a folder of `path` below `root` is a symlink.
  package static func requireNone(in path: String, below root: String) throws(SystemError) {
    guard let link = firstLink(in: path, below: root) else { return }
    throw refusal(of: link)
  }

  /// Why nothing is read or written through the folder `link`.
  package static func refusal(of link: String) -> SystemError {
    SystemError(
      "use the folder", path: link, errorNumber: ELOOP,
      explanation: "it is a symlink, and gitjournal reads and writes through none inside the journal folder; put a "
        + "folder in its place")
  }
}
