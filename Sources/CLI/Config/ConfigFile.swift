import CLibgit2
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
      var iterator: OpaquePointer?
      try check(git_config_iterator_new(&iterator, config), "git_config_iterator_new")
      defer { git_config_iterator_free(iterator) }
      var entries: [Entry] = []
      var entry: UnsafeMutablePointer<git_config_entry>?
      while true {
        let code = git_config_next(&entry, iterator)
        if code == GIT_ITEROVER.rawValue { break }
        try check(code, "git_config_next")
        guard let entry else { continue }
        let value = entry.pointee.value.map { String(cString: $0) } ?? ""
        entries.append(Entry(name: String(cString: entry.pointee.name), value: value))
      }
      return entries
    }
  }

  func set(_ name: String, to value: String) throws(ConfigError) {
    try makeParentFolder()
    try withConfig { config throws(GitError) -> Void in
      try check(git_config_set_string(config, name, value), "git_config_set_string")
    }
  }

  /// Removes every value of `name`; a missing key is fine.
  func removeAll(_ name: String) throws(ConfigError) {
    try withConfig { config throws(GitError) in
      let code = git_config_delete_multivar(config, name, ".*")
      if code != GIT_ENOTFOUND.rawValue { try check(code, "git_config_delete_multivar") }
    }
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

  private func withConfig<T>(_ body: (OpaquePointer) throws(GitError) -> T) throws(ConfigError) -> T {
    LibGit2.ensureInitialized()
    var config: OpaquePointer?
    do {
      try check(git_config_open_ondisk(&config, path), "git_config_open_ondisk")
      defer { git_config_free(config) }
      return try body(config!)
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
