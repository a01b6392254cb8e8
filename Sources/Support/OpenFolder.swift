#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder opened once, whose files are then looked at by name (`fstatat`, `openat`): a second rebuild stats and
/// reads a few files of each of thousands of days, and each absolute path made the kernel walk every folder on the
/// way to it, a fifth of that rebuild's time. A folder that cannot be opened (missing, no permission) has its files
/// looked up by their whole paths, as they would be without it.
package final class OpenFolder: Sendable {
  package let path: String
  /// -1 when the folder could not be opened.
  let descriptor: Int32
  /// A folder on the way to it below the root it was opened in is a symlink (`FolderLinks`): nothing in it is
  /// looked at.
  let isRefused: Bool

  package init(_ path: String) {
    self.path = path
    descriptor = Self.openPath(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    isRefused = false
  }

  /// The folder at `path`, inside `root`, refused when a folder of it below `root` is a symlink: its files are then
  /// all absent, `errno` ELOOP.
  package init(_ path: String, below root: String) {
    self.path = path
    isRefused = FolderLinks.firstLink(in: path, below: root) != nil
    descriptor = isRefused ? -1 : Self.openPath(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// The path of the file named `name` in the folder.
  package func path(of name: String) -> String { path + "/" + name }

  /// The status of the file named `name` (symlinks followed), or nil when there is none (errno says why).
  package func status(of name: String) -> stat? {
    if isRefused {
      errno = ELOOP
      return nil
    }
    var info = stat()
    let result = descriptor >= 0 ? fstatat(descriptor, name, &info, 0) : stat(path(of: name), &info)
    return result == 0 ? info : nil
  }

  /// The stamp of the file named `name` (symlinks followed), or nil when there is none.
  package func stamp(of name: String) -> FileStamp? {
    status(of: name).map(FileStamp.init)
  }

  /// Opens the file named `name` with `flags`; -1 when it cannot be (errno says why).
  func openFile(_ name: String, flags: Int32) -> Int32 {
    if isRefused {
      errno = ELOOP
      return -1
    }
    return descriptor >= 0 ? openat(descriptor, name, flags) : Self.openPath(path(of: name), flags)
  }

  private static func openPath(_ path: String, _ flags: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.open(path, flags)
    #else
      Darwin.open(path, flags)
    #endif
  }
}
