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
    listing(folder, prefix: prefix) ?? []
  }

  /// Every name in `folder`: none when it does not exist, nil when it exists but cannot be read (permissions, no
  /// descriptor left), so that a caller can tell an empty folder from one it knows nothing of.
  package static func allNames(in folder: String) -> [String]? {
    if let names = listing(folder, prefix: "") { return names }
    return errno == ENOENT ? [] : nil
  }

  /// nil, with `errno` set, when the folder cannot be opened.
  private static func listing(_ folder: String, prefix: String) -> [String]? {
    guard let directory = opendir(folder) else { return nil }
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

  /// The names of the folders in `folder`, unsorted, symlinks to folders left out; none when it cannot be read. The
  /// kind comes with the listing (`d_type`), or from a look at the entry when the file system does not say.
  package static func folders(in folder: String) -> [String] {
    entries(of: folder) { name, kind, descriptor in
      switch kind {
      case Int32(DT_DIR): return true
      case Int32(DT_UNKNOWN):
        var info = stat()
        return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFDIR
      default: return false
      }
    }
  }

  /// The names in `folder` that `isWanted` takes and that are regular files or symlinks to one, unsorted; none when
  /// the folder cannot be read. The kind comes with the listing (`d_type`): only a symlink, or a file system that
  /// does not say, costs a look at the file, by name in the folder opened (a rebuild listed 2,500 pages and made
  /// the kernel walk each one's whole path).
  package static func regularFiles(in folder: String, where isWanted: (String) -> Bool) -> [String] {
    entries(of: folder) { name, kind, descriptor in
      guard isWanted(name) else { return false }
      switch kind {
      case Int32(DT_REG): return true
      case Int32(DT_LNK), Int32(DT_UNKNOWN):
        var info = stat()
        return fstatat(descriptor, name, &info, 0) == 0 && info.st_mode & S_IFMT == S_IFREG
      default: return false
      }
    }
  }

  /// The names in `folder` that `keeps` takes, given each name, its `d_type` and the open folder's descriptor (for a
  /// look at an entry by name); none when the folder cannot be read.
  private static func entries(of folder: String, keeping keeps: (String, Int32, Int32) -> Bool) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    let descriptor = dirfd(directory)
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        return String(decoding: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)], as: UTF8.self)
      }
      if keeps(name, Int32(entry.pointee.d_type), descriptor) { names.append(name) }
    }
    return names
  }
}
