import Facts
import Foundation
import GitReader
import Journal
import Narrative
import Support

/// Adds and removes `repo.<name>.*` entries in the config file.
public struct RepositoryRegistry: Sendable {
  let environment: Environment

  public init(environment: Environment) { self.environment = environment }

  private var file: ConfigFile { ConfigFile(path: environment.configPath) }

  public enum AddResult: Equatable, Sendable {
    case added(RepositoryEntry)
    case alreadyPresent(RepositoryEntry)
  }

  /// The configured repositories (from the file only, not the current-directory fallback).
  public func entries() throws(ConfigError) -> [RepositoryEntry] {
    try Configuration(entries: file.entries(), environment: environment).repositories
  }

  /// Registers the repository containing `path` under `name` (default: its folder's name, made unique).
  public func add(path: String, name: String?) throws -> AddResult {
    let absolute = environment.absolute(path)
    guard let root = Repository.discover(from: absolute) else {
      throw RegistryError.notARepository(path: absolute)
    }
    let existing = try entries()
    if let present = existing.first(where: { $0.path == root }) { return .alreadyPresent(present) }
    if let name, existing.contains(where: { $0.name == name }) {
      throw RegistryError.nameTaken(name: name)
    }
    if let name, name.isEmpty || name.contains("\n") || name.contains("\"") {
      throw RegistryError.invalidName(name: name)
    }
    let chosen = name ?? Self.uniqueName(RepositoryEntry.defaultName(forPath: root), taken: Set(existing.map(\.name)))
    try file.set("repo.\(chosen).path", to: root)
    return .added(RepositoryEntry(name: chosen, path: root, isPrivate: false))
  }

  /// Unregisters the repository with this name or path; returns it, or nil when none matched.
  public func remove(nameOrPath: String) throws -> RepositoryEntry? {
    let existing = try entries()
    let absolute = environment.absolute(nameOrPath)
    guard
      let entry = existing.first(where: { $0.name == nameOrPath })
        ?? existing.first(where: { $0.path == absolute || $0.path == Repository.discover(from: absolute) })
    else { return nil }
    for key in ["path", "private"] { try file.removeAll("repo.\(entry.name).\(key)") }
    return entry
  }

  static func uniqueName(_ base: String, taken: Set<String>) -> String {
    guard taken.contains(base) else { return base }
    var counter = 2
    while taken.contains("\(base)-\(counter)") { counter += 1 }
    return "\(base)-\(counter)"
  }
}

/// Problems with a repository given on the command line.
public enum RegistryError: Error, CustomStringConvertible, Equatable {
  case notARepository(path: String)
  case nameTaken(name: String)
  case invalidName(name: String)

  public var description: String {
    switch self {
    case .notARepository(let path): return "\(path) is not inside a git repository"
    case .nameTaken(let name): return "a repository named '\(name)' is already configured: choose another --name"
    case .invalidName(let name): return "'\(name)' cannot be a repository name: use letters, digits, '-' or '.'"
    }
  }
}
