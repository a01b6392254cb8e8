/// Folder and name of a file path, in plain Swift: `NSString`'s path methods bridge and standardize the whole
/// path on every call, a visible part of a second rebuild (one write per day; `bench/instructions.sh`).
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
  private static let dotByte = UInt8(ascii: ".")

  /// The path's bytes without trailing slashes (one slash alone stays). Bytes, not Characters: a "/" is one byte in
  /// UTF-8 and never part of another character, and counting Characters walks the whole path each time.
  private static func trimmingTrailingSlashes(_ path: String) -> Substring.UTF8View {
    var bytes = Substring(path).utf8
    while bytes.count > 1 && bytes.last == slashByte { bytes.removeLast() }
    return bytes
  }

  /// `path` with its `.` components and doubled slashes removed, each `..` taking away the component before it, and
  /// no trailing slash: the path's text made plain without looking at the file system (an absolute path stays
  /// absolute; `..` above the root stays at the root).
  package static func standardized(_ path: String) -> String {
    let bytes = Array(path.utf8)
    let isAbsolute = bytes.first == slashByte
    // The components kept, as ranges of `bytes`.
    var kept: [Range<Int>] = []
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: slashByte) ?? bytes.count
      let length = end - start
      let isDot = length == 1 && bytes[start] == dotByte
      let isDotDot = length == 2 && bytes[start] == dotByte && bytes[start + 1] == dotByte
      if length == 0 || isDot {
        // Nothing: a doubled slash or `.`.
      } else if isDotDot {
        if let last = kept.last,
          !(last.count == 2 && bytes[last.lowerBound] == dotByte && bytes[last.lowerBound + 1] == dotByte)
        {
          kept.removeLast()
        } else if !isAbsolute {
          kept.append(start..<end)
        }
      } else {
        kept.append(start..<end)
      }
      start = end + 1
    }
    var result: [UInt8] = isAbsolute ? [slashByte] : []
    for (index, range) in kept.enumerated() {
      if index > 0 { result.append(slashByte) }
      result += bytes[range]
    }
    if result.isEmpty { result = [dotByte] }
    return String(decoding: result, as: UTF8.self)
  }

}
