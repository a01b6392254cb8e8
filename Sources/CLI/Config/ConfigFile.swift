import Facts
import GitReader
import Journal
import Narrative
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The config file, in git-config syntax, read and written with libgit2's config API, which keeps the file's
/// comments and layout and replaces it atomically (`<file>.lock`, then a rename, as git does).
struct ConfigFile {
  let path: String

  /// The folder the file is in, which relative paths in it are taken from.
  var folder: String { PathText.folder(of: path) }

  /// Seconds a writer waits for the config lock: its holders keep it for one read-check-write.
  static let lockTimeout = 5

  /// Runs `body` holding the config lock (`config.lock` in the state folder), so that gitjournal's own
  /// read-check-writes of the file (`config set`, `repos add`, `uninstall`) never lose one another's change.
  static func locked<T>(stateDirectory: String, _ body: () throws -> T) throws -> T {
    try makeFolders(stateDirectory)
    let lock = try FileLock.acquire(at: stateDirectory + "/config.lock", waitingAtMost: lockTimeout)
    defer { withExtendedLifetime(lock) {} }
    return try body()
  }

  /// One `name = value` entry. Section and key are lower case; a subsection keeps its case.
  struct Entry: Equatable {
    let name: String
    let value: String
  }

  /// Every entry in file order, or none when the file does not exist.
  func entries() throws(ConfigError) -> [Entry] {
    guard access(path, F_OK) == 0 else { return [] }
    return try withConfig { config throws(GitError) in
      try config.entries().map { Entry(name: $0.name, value: $0.value) }
    }
  }

  /// `entries()`, kept in `<cacheDirectory>/config-v1.tsv` with the file's stamp (inode, size, modification and
  /// change times; see `PathStamp`): while the file stamps as it did, its entries come from there without libgit2
  /// parsing the file, which costs a hook work for each `[repo]` section (the ledger in docs/architecture.md
  /// measures it). Not kept: a file with an include (the files it includes are not stamped), one changed so
  /// recently that a change made now could keep its times, and one that changed while it was read. A cache that cannot be read or written costs time only.
  /// `now` tells what is too recent; tests pass a later time instead of waiting.
  func entries(cacheDirectory: String?, now: PathStamp.Timestamp = .now) throws(ConfigError) -> [Entry] {
    guard let cacheDirectory else { return try entries() }
    let cache = cacheDirectory + "/config-v1.tsv"
    let stamp = PathStamp(path: path, kind: .full)
    guard stamp.kind == .full, !stamp.isFolder else { return try entries() }
    if let kept = kept(in: cache, stamp: stamp) { return kept }
    let read = try entries()
    let hasInclude = read.contains {
      let section = Configuration.split($0.name).section
      return section == "include" || section == "includeif"
    }
    if !hasInclude && !stamp.isRacy(now: now) && PathStamp(path: path, kind: .full) == stamp {
      try? StateFile.write(
        [["config", path], ["stamp"] + Self.fields(of: stamp)] + read.map { ["entry", $0.name, $0.value] } + [["end"]],
        to: cache, isCache: true)
    }
    return read
  }

  private static func fields(of stamp: PathStamp) -> [String] {
    [
      stamp.device, stamp.inode, UInt64(bitPattern: stamp.size), UInt64(bitPattern: stamp.modified.seconds),
      UInt64(bitPattern: stamp.modified.nanoseconds), UInt64(bitPattern: stamp.changed.seconds),
      UInt64(bitPattern: stamp.changed.nanoseconds),
    ].map { String($0) }
  }

  /// The entries kept for this file with this stamp, or nil.
  private func kept(in cache: String, stamp: PathStamp) -> [Entry]? {
    var entries: [Entry] = []
    var index = 0
    var isComplete = false
    let expected = Self.fields(of: stamp)
    StateFile.read(cache) { record in
      defer { index += 1 }
      switch index {
      case 0: return record.count == 2 && record.field(0, is: "config") && record.field(1, equals: path)
      case 1:
        return record.count == expected.count + 1 && record.field(0, is: "stamp")
          && expected.indices.allSatisfy { record.field($0 + 1, equals: expected[$0]) }
      default:
        if record.count == 1 && record.field(0, is: "end") {
          isComplete = true
          return false
        }
        guard record.count == 3 && record.field(0, is: "entry") else { return false }
        entries.append(Entry(name: record.text(1), value: record.text(2)))
        return true
      }
    }
    return isComplete ? entries : nil
  }

  func set(_ name: String, to value: String) throws(ConfigError) {
    try makeParentFolder()
    try withConfig { config throws(GitError) in try config.set(name, to: value) }
  }

  /// Removes every value of `name`; a missing key is fine. A section left with nothing in it but blank lines goes
  /// too (git and libgit2 keep its header); one that holds a comment is the user's and stays.
  func removeAll(_ name: String) throws(ConfigError) {
    try withConfig { config throws(GitError) in try config.removeAll(name) }
    let (section, subsection, _) = Configuration.split(name)
    try removeEmptySections(section, subsection)
  }

  /// Adds one more value to a key that may have several (`journal.author`).
  func add(_ name: String, value: String) throws(ConfigError) {
    try makeParentFolder()
    try withConfig { config throws(GitError) in try config.add(name, value: value) }
  }

  /// Removes the values of `name` equal to `value`; returns whether there was one.
  func remove(_ name: String, value: String) throws(ConfigError) -> Bool {
    let before = try entries().filter { Self.sameName($0.name, name) }
    let removed = try withConfig { config throws(GitError) in try config.remove(name, value: value) }
    if removed && before.count == 1 {
      let (section, subsection, _) = Configuration.split(name)
      try removeEmptySections(section, subsection)
    }
    return removed
  }

  /// Whether two entry names are the same key: section and key compared without case, a subsection with it.
  static func sameName(_ a: String, _ b: String) -> Bool {
    let (first, second) = (Configuration.split(a), Configuration.split(b))
    return first.section == second.section && first.subsection == second.subsection && first.key == second.key
  }

  /// Drops the header of each `[section "subsection"]` with nothing but blank lines under it, and those lines,
  /// writing the file as git writes it: `<file>.lock` created exclusively (so git, libgit2 or another gitjournal
  /// writing at the same moment fails instead of losing a change), then renamed over the file.
  private func removeEmptySections(_ section: String, _ subsection: String?) throws(ConfigError) {
    guard let data = FileManager.default.contents(atPath: path) else { return }
    let text = String(decoding: data, as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var index = 0
    var changed = false
    while index < lines.count {
      guard let header = ConfigSectionHeader(line: lines[index]), header.section == section,
        header.subsection == subsection, header.isAlone
      else {
        index += 1
        continue
      }
      var end = index + 1
      while end < lines.count, lines[end].allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { end += 1 }
      let reachesNextSection = end == lines.count || ConfigSectionHeader(line: lines[end]) != nil
      guard reachesNextSection else {
        index = end
        continue
      }
      // The empty string after the file's last line break is not a line of the section: it stays.
      let stop = end == lines.count && lines.last == "" ? end - 1 : end
      lines.removeSubrange(index..<max(index + 1, stop))
      changed = true
    }
    guard changed else { return }
    try replace(with: lines.joined(separator: "\n"))
  }

  private func replace(with text: String) throws(ConfigError) {
    let lockPath = path + ".lock"
    var status = stat()
    let mode = stat(path, &status) == 0 ? mode_t(status.st_mode & 0o7777) : 0o644
    let descriptor = open(lockPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      let reason =
        errno == EEXIST ? "\(lockPath) exists: another program is writing it" : String(cString: strerror(errno))
      throw ConfigError.unwritable(path: path, reason: reason)
    }
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { break }
      offset += written
    }
    let complete = offset == bytes.count && fsync(descriptor) == 0
    close(descriptor)
    guard complete, rename(lockPath, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(lockPath)
      throw ConfigError.unwritable(path: path, reason: reason)
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

  private func withConfig<T>(_ body: (GitConfig) throws(GitError) -> T) throws(ConfigError) -> T {
    do {
      return try body(GitConfig.open(path: path))
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
