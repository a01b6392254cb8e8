import GitReader
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The user's global git config, as git finds it, and the one change `install --global` makes to it: lines
/// appended at its end that include a file of gitjournal's, which sets `core.hooksPath`.
///
/// Appending, rather than setting the key with `git config --global`, is what lets `uninstall --global` leave
/// the file byte for byte as it was: a previous `core.hooksPath` stays where it is, as it is written (git keeps
/// the last value, so the include overrides it), and removing exactly the appended bytes undoes the change. An
/// `[include]` section rather than a `[core]` one, because `git config --global core.<key>` adds a new key to the
/// last `[core]` section of the file, which would then be gitjournal's.
struct GlobalGitConfig {
  let environment: Environment

  /// The file `git config --global` writes: `$GIT_CONFIG_GLOBAL`, else `~/.gitconfig` unless only
  /// `${XDG_CONFIG_HOME:-~/.config}/git/config` exists.
  var path: String {
    if let path = environment.variables["GIT_CONFIG_GLOBAL"], !path.isEmpty { return environment.absolute(path) }
    let home = environment.home + "/.gitconfig"
    if access(home, F_OK) != 0, access(xdgPath, F_OK) == 0 { return xdgPath }
    return home
  }

  private var xdgPath: String {
    let base = environment.variables["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
    return (base ?? environment.home + "/.config") + "/git/config"
  }

  /// The files git reads outside any repository, in git's order (a later value wins).
  private var files: [String] {
    var files: [String] = []
    if environment.variables["GIT_CONFIG_NOSYSTEM"].flatMap(GitConfig.parseBool) != true {
      files.append(environment.variables["GIT_CONFIG_SYSTEM"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/gitconfig")
    }
    if let global = environment.variables["GIT_CONFIG_GLOBAL"], !global.isEmpty {
      files.append(environment.absolute(global))
    } else {
      files += [xdgPath, environment.home + "/.gitconfig"]
    }
    return files
  }

  /// `core.hooksPath` as git sees it outside a repository, includes followed, `~` expanded; nil when unset.
  func hooksPath() -> String? {
    var value: String?
    for file in files where access(file, R_OK) == 0 {
      guard let entries = try? GitConfig.open(path: file).entries() else { continue }
      for entry in entries where entry.name == "core.hookspath" { value = entry.value }
    }
    guard var value, !value.isEmpty else { return nil }
    if value == "~" || value.hasPrefix("~/") { value = environment.home + value.dropFirst() }
    return value
  }

  /// The lines appended to the global file to include `included`.
  static func block(including included: String) -> String {
    """
    # Added by 'gitjournal install --global': git runs gitjournal's hooks, which run yours first.
    # 'gitjournal uninstall --global' removes these lines.
    [include]
    \tpath = \(quotedValue(included))

    """
  }

  /// The included file: it sets `core.hooksPath` to `folder`.
  static func includedText(folder: String) -> String {
    """
    # Written by 'gitjournal install --global', included from your global git config.
    [core]
    \thooksPath = \(quotedValue(folder))

    """
  }

  /// A value in double quotes, as git writes one: `\` and `"` escaped.
  static func quotedValue(_ text: String) -> String {
    "\"" + text.replacingEvery("\\", with: "\\\\").replacingEvery("\"", with: "\\\"") + "\""
  }

  /// What appending `block` changed: the exact bytes added (a line feed first when the file did not end with
  /// one) and whether the file was created.
  struct Addition: Equatable {
    let bytes: [UInt8]
    let created: Bool
  }

  /// Appends `block` to the file, atomically, keeping its permissions (and writing through a symlink, as a
  /// dotfiles manager makes).
  func append(_ block: String) throws -> Addition {
    let file = path
    let existing = try AtomicFile.readContents(file)
    var added = Array(block.utf8)
    if let bytes = existing?.bytes, let last = bytes.last, last != UInt8(ascii: "\n") {
      added.insert(UInt8(ascii: "\n"), at: 0)
    }
    if existing == nil { try makeFolders(PathText.folder(of: file)) }
    let written = try AtomicFile.write(
      bytes: (existing?.bytes ?? []) + added, to: file, unlessChangedFrom: .some(existing?.stamp))
    guard written else { throw GlobalHookError.changedMeanwhile(path: file) }
    return Addition(bytes: added, created: existing == nil)
  }

  /// Removes the last occurrence of `addition`'s bytes, and the file itself when gitjournal created it and
  /// nothing else is in it. False when the bytes are not there (edited by hand since).
  func remove(_ addition: Addition, from file: String) throws -> Bool {
    guard let existing = try AtomicFile.readContents(file) else { return false }
    let bytes = existing.bytes
    guard let start = Self.lastRange(of: addition.bytes, in: bytes) else { return false }
    let rest = Array(bytes[..<start] + bytes[(start + addition.bytes.count)...])
    if rest.isEmpty && addition.created {
      guard unlink(file) == 0 || errno == ENOENT else { throw SystemError("remove", path: file) }
      return true
    }
    guard try AtomicFile.write(bytes: rest, to: file, unlessChangedFrom: .some(existing.stamp)) else {
      throw GlobalHookError.changedMeanwhile(path: file)
    }
    return true
  }

  private static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
    for start in stride(from: haystack.count - needle.count, through: 0, by: -1)
    where haystack[start] == needle[0] && Array(haystack[start..<(start + needle.count)]) == needle {
      return start
    }
    return nil
  }
}
