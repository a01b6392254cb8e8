#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The names in a folder that begin with a prefix, read with `readdir` and compared as bytes before any string is
/// made: the journal folder holds a file per day, and the hook looks in it on every commit.
package enum FolderListing {
  /// The names in `folder` that begin with `prefix`, unsorted; none when the folder cannot be read.
  package static func names(in folder: String, withPrefix prefix: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    let wanted = Array(prefix.utf8)
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw -> String? in
        let bytes = raw.bindMemory(to: UInt8.self)
        guard bytes.count > wanted.count, memcmp(bytes.baseAddress!, wanted, wanted.count) == 0 else { return nil }
        let length = bytes.firstIndex(of: 0) ?? bytes.count
        return String(decoding: bytes[..<length], as: UTF8.self)
      }
      if let name { names.append(name) }
    }
    return names
  }
}
