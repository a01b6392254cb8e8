#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call, with the path it was about and `strerror`'s words.
public struct SystemError: Error, CustomStringConvertible, Sendable {
  public let operation: String
  public let path: String
  public let errorNumber: Int32
  /// Said instead of `strerror`'s words where those would mislead (a FIFO where a file should be is no error the
  /// system knows).
  public let explanation: String?

  package init(_ operation: String, path: String, errorNumber: Int32 = errno, explanation: String? = nil) {
    self.operation = operation
    self.path = path
    self.errorNumber = errorNumber
    self.explanation = explanation
  }

  public var description: String {
    "cannot \(operation) \(path): \(explanation ?? String(cString: strerror(errorNumber)))"
  }
}

/// `mkdir -p`: creates `path` and its missing parents; an existing folder is fine.
package func makeFolders(_ path: String) throws(SystemError) {
  var info = stat()
  // Nearly always the folder is there already: one stat instead of a mkdir per component.
  if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
  var current = path.hasPrefix("/") ? "" : "."
  for component in path.split(separator: "/") {
    current += "/" + component
    if mkdir(current, 0o755) != 0 && errno != EEXIST {
      throw SystemError("create the folder", path: current)
    }
  }
  guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
    throw SystemError("create the folder", path: path, errorNumber: ENOTDIR)
  }
}
