/// Folder and name of a file path, in plain Swift: `NSString`'s path methods bridge and standardize the whole
/// path on every call, which cost a second rebuild 5% of its instructions (one write per day).
package enum PathText {
  /// The folder holding `path` (`/a/b/c` gives `/a/b`, `/a` gives `/`, `a` gives `.`), trailing slashes ignored.
  package static func folder(of path: String) -> String {
    let bytes = trimmingTrailingSlashes(path)
    guard let slash = bytes.lastIndex(of: slashByte) else { return "." }
    return slash == bytes.startIndex ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
  }

  /// The last component of `path` (`/a/b/c` gives `c`), trailing slashes ignored.
  package static func name(of path: String) -> String {
    let bytes = trimmingTrailingSlashes(path)
    guard let slash = bytes.lastIndex(of: slashByte) else { return String(decoding: bytes, as: UTF8.self) }
    return String(decoding: bytes[bytes.index(after: slash)...], as: UTF8.self)
  }

  private static let slashByte = UInt8(ascii: "/")

  /// The path's bytes without trailing slashes (one slash alone stays). Bytes, not Characters: a "/" is one byte in
  /// UTF-8 and never part of another character, and counting Characters walks the whole path each time.
  private static func trimmingTrailingSlashes(_ path: String) -> Substring.UTF8View {
    var bytes = Substring(path).utf8
    while bytes.count > 1 && bytes.last == slashByte { bytes.removeLast() }
    return bytes
  }
}
