import CSystem

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's surroundings, passed in rather than read from globals so that tests can run commands in
/// process with their own HOME, config, time zone and clock.
public struct Environment: Sendable {
  public var variables: [String: String]
  public var currentDirectory: String
  public var now: @Sendable () -> Date

  public init(
    variables: [String: String], currentDirectory: String, now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.variables = variables
    self.currentDirectory = currentDirectory
    self.now = now
  }

  /// The running process's environment.
  public static var current: Environment {
    Environment(variables: processVariables(), currentDirectory: currentDirectoryPath())
  }

  /// The working directory, as `getcwd` gives it; `/` when it cannot be told (removed since, say).
  static func currentDirectoryPath() -> String {
    guard let path = getcwd(nil, 0) else { return "/" }
    defer { free(path) }
    return String(cString: path)
  }

  /// The process's variables as `ProcessInfo.environment` gives them (an entry without `=` left out, the last of
  /// two with one name kept), split at the first `=` byte: Foundation splits each entry by Character, a large part
  /// of every hook (`bench/instructions.sh`).
  static func processVariables() -> [String: String] {
    #if canImport(Darwin)
      guard let entries = _NSGetEnviron()?.pointee else { return [:] }
    #else
      let entries = environ
    #endif
    var variables: [String: String] = [:]
    var index = 0
    while let entry = entries[index] {
      index += 1
      let length = strlen(entry)
      let bytes = UnsafeRawBufferPointer(start: entry, count: length)
      guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let name = String(decoding: bytes[..<equals], as: UTF8.self)
      variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
    }
    return variables
  }

  public var home: String {
    if let home = variables["HOME"], !home.isEmpty { return home }
    // The password database's, as the C library finds it for a process started without HOME.
    if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir { return String(cString: directory) }
    return "/"
  }

  /// `$GITJOURNAL_CONFIG`, else `${XDG_CONFIG_HOME:-~/.config}/gitjournal/config`.
  public var configPath: String {
    if let path = variables["GITJOURNAL_CONFIG"], !path.isEmpty { return absolute(path) }
    return xdgFolder("XDG_CONFIG_HOME", default: ".config") + "/gitjournal/config"
  }

  /// Set to `1` by the hook for itself and the narrator it starts: the config file must exist, and nothing falls
  /// back to journaling the current repository with defaults.
  package static let configRequiredVariable = "GITJOURNAL_CONFIG_REQUIRED"

  /// Whether a missing config file is an error rather than "journal the current repository" (see
  /// `configRequiredVariable`).
  package var requiresConfigFile: Bool { variables[Self.configRequiredVariable] == "1" }

  /// `${XDG_STATE_HOME:-~/.local/state}/gitjournal`: the lock, logs, backoff state.
  public var stateDirectory: String { xdgFolder("XDG_STATE_HOME", default: ".local/state") + "/gitjournal" }

  /// `${XDG_CACHE_HOME:-~/.cache}/gitjournal`: things that can be recomputed.
  public var cacheDirectory: String { xdgFolder("XDG_CACHE_HOME", default: ".cache") + "/gitjournal" }

  /// Set to 1, every cache kept only for speed is neither read nor written: repositories are walked and counted,
  /// the config parsed, pages and records read, as if `~/.cache/gitjournal` were empty each time. For ruling the
  /// caches out while debugging; the journal written is the same (docs/architecture.md, "Speed devices").
  package static let noCacheVariable = "GITJOURNAL_NO_CACHE"

  /// `cacheDirectory` for the caches kept for speed, or nil when `GITJOURNAL_NO_CACHE=1` turns them off. The
  /// sentences stay in `cacheDirectory`: they are what the model wrote, not a speed-up.
  public var speedCacheDirectory: String? { variables[Self.noCacheVariable] == "1" ? nil : cacheDirectory }

  /// The time zone the journal keeps when its config names none: `TZ`'s, read as the C library reads it (a zone
  /// name, `:` and a name, a zone file's path, or a POSIX rule such as `EST5EDT`; set but empty is UTC), else
  /// `/etc/localtime`'s, else UTC. A `TZ` that names no zone falls back to `/etc/localtime` (where the C library
  /// would take UTC), as it did when Foundation read it.
  public var systemTimeZone: TimeZoneRules {
    if var value = variables["TZ"] {
      if value.isEmpty { return .utc }
      if value.hasPrefix(":") { value.removeFirst() }
      if value.hasPrefix("/") {
        if let zone = TimeZoneRules.read(file: value, identifier: value) { return zone }
      } else if let zone = TimeZoneRules(identifier: value, folder: timeZoneFolder) ?? TimeZoneRules(posix: value) {
        return zone
      }
    }
    return Self.localTimeZone() ?? .utc
  }

  /// The folder of the system's zone files: `TZDIR`, else `/usr/share/zoneinfo`.
  public var timeZoneFolder: String {
    if let folder = variables["TZDIR"], !folder.isEmpty { return folder }
    return "/usr/share/zoneinfo"
  }

  /// The zone of the file `path` (`/etc/localtime`), named after the zone file it links to
  /// (`/usr/share/zoneinfo/Europe/Paris` names it `Europe/Paris`), or `localtime` when it links to none; nil when
  /// there is no such file.
  static func localTimeZone(path: String = "/etc/localtime") -> TimeZoneRules? {
    var identifier = "localtime"
    var target = [CChar](repeating: 0, count: 1024)
    let length = readlink(path, &target, target.count - 1)
    if length > 0 {
      let bytes = target[..<length].map { UInt8(bitPattern: $0) }
      let marker = Array("zoneinfo/".utf8)
      if bytes.count > marker.count,
        let start = (0...bytes.count - marker.count).last(where: {
          bytes[$0..<$0 + marker.count].elementsEqual(marker)
        })
      {
        identifier = String(decoding: bytes[(start + marker.count)...], as: UTF8.self)
      }
    }
    return TimeZoneRules.read(file: path, identifier: identifier)
  }

  /// Expands a leading `~` and makes relative paths absolute against `base` (default: the current directory).
  public func absolute(_ path: String, relativeTo base: String? = nil) -> String {
    // Looked at by bytes, not by `Character`: this runs for every configured repository.
    let bytes = path.utf8
    var expanded = path
    if bytes.first == UInt8(ascii: "~") {
      if bytes.count == 1 {
        expanded = home
      } else if bytes.dropFirst().first == UInt8(ascii: "/") {
        expanded = home + String(decoding: bytes.dropFirst(), as: UTF8.self)
      }
    }
    if expanded.utf8.first != UInt8(ascii: "/") { expanded = (base ?? currentDirectory) + "/" + expanded }
    // An existing path is resolved by the system (the hook does this for every configured repository); one that
    // does not exist yet, as far as its folders do, with the rest made plain.
    if let resolved = Self.resolvedFolder(expanded) { return resolved }
    if let resolved = realpath(expanded, nil) {
      defer { free(resolved) }
      return String(cString: resolved)
    }
    var existing = PathText.standardized(expanded)
    var rest: [String] = []
    while true {
      if let resolved = realpath(existing, nil) {
        defer { free(resolved) }
        let folder = String(cString: resolved)
        guard !rest.isEmpty else { return folder }
        return (folder == "/" ? "" : folder) + "/" + rest.reversed().joined(separator: "/")
      }
      // At the root, or at `.` of a relative base that does not resolve (its folder removed): nothing above.
      let folder = PathText.folder(of: existing)
      guard folder != existing else { return PathText.standardized(expanded) }
      rest.append(PathText.name(of: existing))
      existing = folder
    }
  }

  /// `absolute(_:relativeTo:)` of each path, empty ones left empty. Resolving a path costs three system calls
  /// (see `resolvedFolder`), so a long list is cut into one run per core, each of at least `pathsPerRun` paths
  /// (a hook resolves every configured repository's folder).
  public func absolute(_ paths: [String], relativeTo base: String) -> [String] {
    SideThreads.map(paths, runsOfAtLeast: Self.pathsPerRun) { part in
      part.map { $0.isEmpty ? $0 : absolute($0, relativeTo: base) }
    }
  }

  /// The fewest paths that make a run of their own on another core: a thread starts in 20 to 100 µs, about what
  /// 25 paths take to resolve.
  static let pathsPerRun = 25

  /// The folder at `path` with every symbolic link resolved, or nil when it is not an existing folder (or the
  /// system cannot say). On Linux the folder is opened and the kernel names what it opened: three system calls,
  /// where realpath(3) reads every leading part of the path as a possible link, five for a repository at
  /// `/home/me/code/app`. `O_DIRECTORY` refuses anything else before opening it, so a FIFO never blocks.
  static func resolvedFolder(_ path: String) -> String? {
    #if os(Linux)
      // A path that already names its folder plainly (see `isPlain`) is proved to by one opening that refuses
      // every symbolic link on the way: the kernel then walked exactly the names written, and would name the
      // folder so. The name of an open descriptor is the costly part of the three calls below (half of a quiet
      // repository's time in a hook, on a machine with slow system calls), and `repos add` writes paths plainly.
      // (In a case-insensitive folder, ext4's casefold, a name written in another case stays as written.)
      if isPlain(path) {
        let plain = gitjournal_open_folder_without_links(path)
        if plain >= 0 {
          close(plain)
          return path
        }
      }
      let descriptor = path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK) }
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      // Small enough for the stack; a longer name is left to realpath(3).
      let capacity = 1000
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> String? in
        // The link's name is made in place: this runs for every configured repository.
        var name: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let length = withUnsafeMutableBytes(of: &name) { bytes -> Int in
          let prefix: StaticString = "/proc/self/fd/"
          var end = prefix.utf8CodeUnitCount
          bytes.baseAddress!.copyMemory(from: prefix.utf8Start, byteCount: end)
          var digits = descriptor
          repeat {
            bytes[end] = UInt8(48 + digits % 10)
            digits /= 10
            end += 1
          } while digits > 0
          // The digits were written lowest first.
          var low = prefix.utf8CodeUnitCount
          var high = end - 1
          while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
          }
          return readlink(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), buffer.baseAddress!, capacity)
        }
        guard length > 0, length < capacity, buffer[0] == UInt8(ascii: "/") else { return nil }
        // A folder removed while open is named with this suffix; realpath(3) then says what is there.
        let deleted = " (deleted)".utf8
        if length >= deleted.count && buffer[(length - deleted.count)..<length].elementsEqual(deleted) { return nil }
        return String(decoding: buffer[0..<length], as: UTF8.self)
      }
    #else
      return nil
    #endif
  }

  /// Whether `path` is absolute and has no empty, `.` or `..` part and no `/` at its end (but for `/` itself):
  /// resolving it can then only change it through a symbolic link.
  static func isPlain(_ path: String) -> Bool {
    var path = path
    // Part by part, each found with memchr: byte by byte, this showed in every hook, once per repository.
    return path.withUTF8 { bytes in
      guard let base = bytes.baseAddress, bytes.first == UInt8(ascii: "/"), memchr(base, 0, bytes.count) == nil else {
        return false
      }
      guard bytes.count > 1 else { return true }
      var partStart = 1
      while true {
        let rest = bytes.count - partStart
        let slash = memchr(base + partStart, Int32(UInt8(ascii: "/")), rest)
        let partLength = slash.map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) - partStart } ?? rest
        // Empty (`//`, or `/` at the end), `.` or `..`.
        if partLength == 0 { return false }
        if bytes[partStart] == UInt8(ascii: ".")
          && (partLength == 1 || (partLength == 2 && bytes[partStart + 1] == UInt8(ascii: ".")))
        {
          return false
        }
        guard slash != nil else { return true }
        partStart += partLength + 1
      }
    }
  }

  private func xdgFolder(_ variable: String, default relative: String) -> String {
    // The XDG spec says relative values are invalid and must be ignored.
    if let value = variables[variable], value.hasPrefix("/") { return value }
    return home + "/" + relative
  }
}
