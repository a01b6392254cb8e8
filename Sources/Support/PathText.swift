/// Folder and name of a file path, in plain Swift: `NSString`'s path methods bridge and standardize the whole
/// path on every call, which cost a second rebuild 5% of its instructions (one write per day).
package enum PathText {
  /// The folder holding `path` (`/a/b/c` gives `/a/b`, `/a` gives `/`, `a` gives `.`), trailing slashes ignored.
  package static func folder(of path: String) -> String {
    let trimmed = trimmingTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
  }

  /// The last component of `path` (`/a/b/c` gives `c`), trailing slashes ignored.
  package static func name(of path: String) -> String {
    let trimmed = trimmingTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  private static func trimmingTrailingSlashes(_ path: String) -> Substring {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
    return trimmed
  }
}
