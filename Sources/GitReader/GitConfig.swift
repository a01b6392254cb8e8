import CLibgit2
import Support

/// One git-config file opened on its own, as gitjournal's config is: read, set and unset through libgit2,
/// so its syntax, quoting and includes are git's.
package final class GitConfig {
  private let pointer: OpaquePointer

  private init(pointer: OpaquePointer) { self.pointer = pointer }

  deinit { git_config_free(pointer) }

  /// Opens the file at `path`; libgit2 creates it on the first write.
  package static func open(path: String) throws(GitError) -> GitConfig {
    LibGit2.ensureInitialized()
    var handle: OpaquePointer?
    try check(git_config_open_ondisk(&handle, path), "git_config_open_ondisk")
    guard let handle else { throw GitError(code: GIT_ERROR.rawValue, function: "git_config_open_ondisk") }
    return GitConfig(pointer: handle)
  }

  /// Every `name = value` in file order: section and key lower case, a subsection as written.
  package func entries() throws(GitError) -> [(name: String, value: String)] {
    var iterator: OpaquePointer?
    try check(git_config_iterator_new(&iterator, pointer), "git_config_iterator_new")
    defer { git_config_iterator_free(iterator) }
    var entries: [(name: String, value: String)] = []
    var entry: UnsafeMutablePointer<git_config_entry>?
    while true {
      let code = git_config_next(&entry, iterator)
      if code == GIT_ITEROVER.rawValue { break }
      try check(code, "git_config_next")
      guard let entry else { continue }
      entries.append((String(cString: entry.pointee.name), entry.pointee.value.map { String(cString: $0) } ?? ""))
    }
    return entries
  }

  package func set(_ name: String, to value: String) throws(GitError) {
    try check(git_config_set_string(pointer, name, value), "git_config_set_string")
  }

  /// Adds one more value of `name` after those it has (a key that may be given several times).
  package func add(_ name: String, value: String) throws(GitError) {
    // The pattern says which values to replace: one that matches none ("a", then the start of the value) adds.
    try check(git_config_set_multivar(pointer, name, "a^", value), "git_config_set_multivar")
  }

  /// Removes every value of `name`; a missing key is fine.
  package func removeAll(_ name: String) throws(GitError) {
    let code = git_config_delete_multivar(pointer, name, ".*")
    if code != GIT_ENOTFOUND.rawValue { try check(code, "git_config_delete_multivar") }
  }

  /// Removes the values of `name` that are exactly `value`; returns whether there was one.
  package func remove(_ name: String, value: String) throws(GitError) -> Bool {
    let code = git_config_delete_multivar(pointer, name, "^" + Self.regexQuoted(value) + "$")
    if code == GIT_ENOTFOUND.rawValue { return false }
    try check(code, "git_config_delete_multivar")
    return true
  }

  /// `text` with every character a POSIX extended regular expression treats specially escaped.
  static func regexQuoted(_ text: String) -> String {
    var quoted = ""
    for character in text {
      if "\\^$.|?*+()[]{}".contains(character) { quoted.append("\\") }
      quoted.append(character)
    }
    return quoted
  }

  /// git's own boolean words (true/yes/on/1, false/no/off/0); nil for anything else. libgit2 is set up first: the
  /// config may come from its cache with no libgit2 call before this one, and a word that is no boolean makes
  /// libgit2 record an error in its per-thread state, which libgit2 1.9 keeps only once it is set up (it crashed).
  package static func parseBool(_ text: String) -> Bool? {
    LibGit2.ensureInitialized()
    var value: Int32 = 0
    guard git_config_parse_bool(&value, text) == 0 else { return nil }
    return value != 0
  }
}
