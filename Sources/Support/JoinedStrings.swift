extension Array where Element == String {
  /// The strings with `separator` between them, as the standard library's `joined(separator:)` gives them. This
  /// one is concrete: the standard library's is generic over any collection of strings, and its first call in a
  /// process has the runtime look up the collection's associated types, a cost the hook paid on every commit
  /// (BENCHMARKS.md, the hook).
  /// A file that imports Support calls this one for an array; one that does not gets the standard library's, with
  /// no error to say so (`MemberImportVisibility`, see Package.swift), so a file on the hook's path imports Support. The bytes are copied once into a string of the right
  /// size (appending piece by piece cost a page's rendering more than the generic call).
  package func joined(separator: String = "") -> String {
    guard let first else { return "" }
    guard count > 1 else { return first }
    var separator = separator
    var length = separator.utf8.count * (count - 1)
    for text in self { length += text.utf8.count }
    return separator.withUTF8 { separatorBytes in
      String(unsafeUninitializedCapacity: length) { buffer in
        var offset = 0
        for index in indices {
          if index > 0 {
            _ = UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(from: separatorBytes)
            offset += separatorBytes.count
          }
          var text = self[index]
          text.withUTF8 { bytes in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(from: bytes)
            offset += bytes.count
          }
        }
        return offset
      }
    }
  }
}
