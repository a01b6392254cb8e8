import Foundation

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
    Environment(
      variables: ProcessInfo.processInfo.environment, currentDirectory: FileManager.default.currentDirectoryPath)
  }

  public var home: String {
    if let home = variables["HOME"], !home.isEmpty { return home }
    return NSHomeDirectory()
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

  /// The time zone named by `TZ` when it is a valid IANA name, else the system's.
  public var systemTimeZone: TimeZone {
    if var name = variables["TZ"], !name.isEmpty {
      if name.hasPrefix(":") { name.removeFirst() }
      if let zone = TimeZone(identifier: name) { return zone }
    }
    return TimeZone.current
  }

  /// Expands a leading `~` and makes relative paths absolute against `base` (default: the current directory).
  public func absolute(_ path: String, relativeTo base: String? = nil) -> String {
    var expanded = path
    if expanded == "~" {
      expanded = home
    } else if expanded.hasPrefix("~/") {
      expanded = home + expanded.dropFirst()
    }
    if !expanded.hasPrefix("/") { expanded = (base ?? currentDirectory) + "/" + expanded }
    // realpath(3) resolves an existing path in one call; Foundation's standardizing (which also resolves
    // symlinks, and copes with paths that do not exist yet) costs far more, and the hook does this for every
    // configured repository.
    if let resolved = realpath(expanded, nil) {
      defer { free(resolved) }
      return String(cString: resolved)
    }
    return (expanded as NSString).standardizingPath
  }

  private func xdgFolder(_ variable: String, default relative: String) -> String {
    // The XDG spec says relative values are invalid and must be ignored.
    if let value = variables[variable], value.hasPrefix("/") { return value }
    return home + "/" + relative
  }
}
