import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files left out of files-changed and line counts (`journal.excludePaths`, `repo.<name>.excludePaths`), matched as
/// git matches a pathspec without magic, so the counts are what `git log --shortstat -- . ':(exclude)<pattern>'`
/// prints: a pattern without wildcards is a path from the top of the repository, that file or everything under that
/// folder (`package-lock.json` is the top-level one only); a pattern with wildcards (`*`, `?`, `[`) is matched
/// against the whole path by fnmatch(3) without FNM_PATHNAME, so `*` and `?` match `/` too (`*.lock` is every lock
/// file at any depth, `dist/**` everything under `dist`).
package struct PathFilter: Sendable, Equatable {
  package let patterns: [String]

  /// Nil for no patterns: the diff then takes no path into account at all.
  package init?(patterns: [String]) {
    guard !patterns.isEmpty else { return nil }
    self.patterns = patterns
  }

  /// What a valid pattern looks like, or nil when `pattern` is one: not empty, relative to the top of the
  /// repository, and no pathspec magic (gitjournal adds `:(exclude)` itself).
  package static func problem(with pattern: String) -> String? {
    if pattern.isEmpty { return "empty" }
    if pattern.hasPrefix("/") { return "an absolute path" }
    if pattern.hasPrefix(":") { return "pathspec magic" }
    if pattern.contains("\n" as Character) || pattern.contains("\0" as Character) { return "a control character" }
    return nil
  }

  /// Whether the file at `path` (from the top of the repository, `/`-separated) is left out.
  package func excludes(_ path: String) -> Bool {
    patterns.contains { Self.matches($0, path) }
  }

  /// What decides the counts, for the caches' keys: the same patterns give the same counts, in any order.
  package var signature: String { Set(patterns).sorted().joined(separator: "\n") }

  static func matches(_ pattern: String, _ path: String) -> Bool {
    let hasWildcard = pattern.utf8.contains { $0 == 42 || $0 == 63 || $0 == 91 || $0 == 92 }
    if !hasWildcard {
      // A literal: the path itself, or anything in the folder of that name.
      if pattern.hasSuffix("/") { return path.hasPrefix(pattern) }
      return path == pattern || (path.hasPrefix(pattern) && path.utf8.dropFirst(pattern.utf8.count).first == 47)
    }
    return fnmatch(pattern, path, 0) == 0
  }
}
