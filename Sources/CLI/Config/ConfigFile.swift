import Facts
import GitReader
import Journal
import Narrative
import Support

/// The config file, in git-config syntax, read and written with libgit2's config API.
struct ConfigFile {
  let path: String

  /// One `name = value` entry. Section and key are lower case; a subsection keeps its case.
  struct Entry: Equatable {
    let name: String
    let value: String
  }

  /// Every entry in file order, or none when the file does not exist.
  func entries() throws(ConfigError) -> [Entry] {
    guard access(path, F_OK) == 0 else { return [] }
    return try withConfig { config throws(GitError) in
      try config.entries().map { Entry(name: $0.name, value: $0.value) }
    }
  }

  func set(_ name: String, to value: String) throws(ConfigError) {
    try makeParentFolder()
    try withConfig { config throws(GitError) in try config.set(name, to: value) }
  }

  /// Adds one more value of `name` after those it has.
  func add(_ name: String, value: String) throws(ConfigError) {
    try makeParentFolder()
    try withConfig { config throws(GitError) in try config.add(name, value: value) }
  }

  /// Removes every value of `name`; a missing key is fine.
  func removeAll(_ name: String) throws(ConfigError) {
    try withConfig { config throws(GitError) in try config.removeAll(name) }
  }

  private func makeParentFolder() throws(ConfigError) {
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    guard !folder.isEmpty else { return }
    do {
      try makeFolders(folder)
    } catch {
      throw ConfigError.unwritable(path: path, reason: error.description)
    }
  }

  private func withConfig<T>(_ body: (GitConfig) throws(GitError) -> T) throws(ConfigError) -> T {
    do {
      return try body(GitConfig.open(path: path))
    } catch {
      throw ConfigError.unreadable(path: path, reason: error.message)
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
