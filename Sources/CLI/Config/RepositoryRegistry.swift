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

/// Adds and removes `repo.<name>.*` entries in the config file, each change under the config lock, so that two
/// hooks registering repositories at once, or a hook and a command, never pick one name twice or lose an entry.
public struct RepositoryRegistry: Sendable {
  let environment: Environment

  public init(environment: Environment) { self.environment = environment }

  private var file: ConfigFile { ConfigFile(path: environment.configPath) }

  public enum AddResult: Equatable, Sendable {
    case added(RepositoryEntry)
    case alreadyPresent(RepositoryEntry)
    /// A retired repository journaled again from now on.
    case resumed(RepositoryEntry)

    public var entry: RepositoryEntry {
      switch self {
      case .added(let entry), .alreadyPresent(let entry), .resumed(let entry): return entry
      }
    }
  }

  /// The configured repositories (from the file only, not the current-directory fallback).
  public func entries() throws(ConfigError) -> [RepositoryEntry] {
    try configuration().repositories
  }

  /// The file's settings alone (no current-directory fallback); the first problem is thrown.
  private func configuration() throws(ConfigError) -> Configuration {
    try Configuration(entries: file.entries(), environment: environment)
  }

  /// Runs `body` holding `config.lock` in the state folder. Not the config's own `<file>.lock`: libgit2 creates
  /// that one itself for each write, and fails when it exists.
  func locked<T>(_ body: () throws -> T) throws -> T {
    try ConfigFile.locked(stateDirectory: environment.stateDirectory, body)
  }

  /// Registers the repository containing `path` under `name` (default: its folder's name, made unique). A linked
  /// worktree registers its main repository: a second entry for the same commits would be a second project, and
  /// one that is not private when the first is.
  public func add(path: String, name: String?) throws -> AddResult {
    let absolute = environment.absolute(path)
    guard let found = Repository.discover(from: absolute) else { throw RegistryError.noRepository(at: absolute) }
    let root = Repository.mainRoot(of: found)
    return try locked { () throws -> AddResult in try add(root: root, name: name) }
  }

  private func add(root: String, name: String?) throws -> AddResult {
    let configuration = try configuration()
    if let refusal = RegistrationCheck.refusal(root: root, configuration: configuration, automatic: false) {
      throw refusal
    }
    let existing = configuration.repositories
    if let present = existing.first(where: { $0.path == root }) {
      // A name that is not applied would be a silent surprise: the journal would go on using the old one.
      if let name, name != present.name {
        throw RegistryError.alreadyNamed(path: root, name: present.name, requested: name)
      }
      guard present.isRetired else { return .alreadyPresent(present) }
      try file.removeAll("repo.\(present.name).retired")
      var resumed = present
      resumed.retiredAt = nil
      return .resumed(resumed)
    }
    if let name, existing.contains(where: { $0.name == name }) {
      throw RegistryError.nameTaken(name: name)
    }
    if let name, !Self.isValidName(name) {
      throw RegistryError.invalidName(name: name)
    }
    let taken = Set((existing + configuration.excludedRepositories).map(\.name))
    let chosen = name ?? Self.uniqueName(RepositoryEntry.defaultName(forPath: root), taken: taken)
    try file.set("repo.\(chosen).path", to: root)
    return .added(RepositoryEntry(name: chosen, path: root, isPrivate: false))
  }

  /// What the global hook does at a repository's first commit: registers `root` (a main working tree or a bare
  /// repository) under its folder's name, made unique, unless the config names it already in any way (retired and
  /// excluded sections too: those stay out for good) or `RegistrationCheck` refuses it. Returns the new entry.
  func registerAutomatically(root: String) throws -> RepositoryEntry? {
    try locked { () throws -> RepositoryEntry? in
      // Read again under the lock: another hook may have registered it a moment ago.
      let configuration = try configuration()
      let known = configuration.repositories + configuration.excludedRepositories
      guard !known.contains(where: { $0.path == root }),
        RegistrationCheck.refusal(root: root, configuration: configuration, automatic: true) == nil
      else { return nil }
      let name = Self.uniqueName(RepositoryEntry.defaultName(forPath: root), taken: Set(known.map(\.name)))
      try file.set("repo.\(name).path", to: root)
      return RepositoryEntry(name: name, path: root, isPrivate: false)
    }
  }

  /// The configured repository with this name or path, or nil.
  public func entry(nameOrPath: String) throws -> RepositoryEntry? {
    let existing = try entries()
    let absolute = environment.absolute(nameOrPath)
    return existing.first(where: { $0.name == nameOrPath })
      ?? existing.first(where: { $0.path == absolute || $0.path == Repository.discover(from: absolute) })
  }

  /// Retires the repository with this name or path: commits authored from `now` on are not journaled, those
  /// before stay. Returns it, or nil when none matched. A repository already retired keeps its first time.
  public func retire(nameOrPath: String, now: Date) throws -> RepositoryEntry? {
    try locked { () throws -> RepositoryEntry? in try retireLocked(nameOrPath: nameOrPath, now: now) }
  }

  private func retireLocked(nameOrPath: String, now: Date) throws -> RepositoryEntry? {
    guard var entry = try entry(nameOrPath: nameOrPath) else { return nil }
    if entry.retiredAt == nil {
      // Times are whole seconds: a commit made in the second of the retirement, before it, still counts.
      let seconds = Int64(now.timeIntervalSince1970.rounded(.down)) + 1
      try file.set("repo.\(entry.name).retired", to: RetirementTime.format(seconds))
      entry.retiredAt = seconds
    }
    return entry
  }

  /// Unregisters the repository with this name or path entirely (`repos remove --forget`); returns it, or nil
  /// when none matched. Its commits leave the journal only when the caller erases them from the records.
  public func remove(nameOrPath: String) throws -> RepositoryEntry? {
    try locked { () throws -> RepositoryEntry? in
      guard let entry = try entry(nameOrPath: nameOrPath) else { return nil }
      // Every key of the section, whichever it is: one left behind would be a section without a path.
      let keys = try file.entries().map(\.name).filter {
        let parts = Configuration.split($0)
        return parts.section == "repo" && parts.subsection == entry.name
      }
      for key in Set(keys).sorted() { try file.removeAll(key) }
      return entry
    }
  }

  /// Renames the repository `old` (retired and excluded ones too): every `repo.<old>.*` value moves to
  /// `repo.<new>.*`, in file order. Returns the entry under its new name.
  public func rename(_ old: String, to new: String) throws -> RepositoryEntry {
    try locked { () throws -> RepositoryEntry in
      let configuration = try configuration()
      let known = configuration.repositories + configuration.excludedRepositories
      guard var entry = known.first(where: { $0.name == old }) else { throw RegistryError.noSuchName(name: old) }
      guard !known.contains(where: { $0.name == new }) else { throw RegistryError.nameTaken(name: new) }
      guard Self.isValidName(new) else { throw RegistryError.invalidName(name: new) }
      let prefix = "repo.\(old)."
      let values = try file.entries().filter { $0.name.hasPrefix(prefix) }
      var keys: [String] = []
      for value in values {
        let key = String(value.name.dropFirst(prefix.count))
        if !keys.contains(key) { keys.append(key) }
        try file.add("repo.\(new).\(key)", value: value.value)
      }
      for key in keys { try file.removeAll(prefix + key) }
      entry.name = new
      return entry
    }
  }

  /// Points the repository `name` at the repository containing `path` (its main working tree, for a linked
  /// worktree), as the hook log suggests when a repository's folder has gone. Returns the entry and its old path.
  public func move(_ name: String, to path: String) throws -> (entry: RepositoryEntry, oldPath: String) {
    let absolute = environment.absolute(path)
    guard let found = Repository.discover(from: absolute) else { throw RegistryError.noRepository(at: absolute) }
    let root = Repository.mainRoot(of: found)
    return try locked { () throws -> (entry: RepositoryEntry, oldPath: String) in
      let configuration = try configuration()
      let known = configuration.repositories + configuration.excludedRepositories
      guard var entry = known.first(where: { $0.name == name }) else { throw RegistryError.noSuchName(name: name) }
      if let other = known.first(where: { $0.path == root && $0.name != name }) {
        throw RegistryError.pathTaken(path: root, name: other.name)
      }
      if RegistrationCheck.holdsJournal(root: root, journal: configuration.journalDirectory) {
        throw RegistrationCheck.Refusal.holdsJournal(repository: root, journal: configuration.journalDirectory)
      }
      let oldPath = entry.path
      try file.set("repo.\(name).path", to: root)
      entry.path = root
      return (entry, oldPath)
    }
  }

  /// A name git can keep as a subsection and the journal can show as a heading.
  static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && !name.contains(where: { $0.isNewline || $0 == "\"" })
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
  /// A repository is there, and libgit2 cannot open it (its object format, say): libgit2's words.
  case unreadable(reason: String)
  case nameTaken(name: String)
  case invalidName(name: String)
  case noSuchName(name: String)
  case pathTaken(path: String, name: String)
  /// `--name` for a repository that is already configured under another name.
  case alreadyNamed(path: String, name: String, requested: String)

  public var description: String {
    switch self {
    case .alreadyNamed(let path, let name, let requested):
      return "\(path) is already journaled as '\(name)', so --name \(requested) was not applied: --name names a "
        + "repository when it is added; nothing was changed"
    case .notARepository(let path): return "\(path) is not inside a git repository"
    case .unreadable(let reason): return reason
    case .nameTaken(let name): return "a repository named '\(name)' is already configured: choose another --name"
    case .invalidName(let name): return "'\(name)' cannot be a repository name: use letters, digits, '-' or '.'"
    case .noSuchName(let name): return "no configured repository is named '\(name)'; 'gitjournal repos' lists them"
    case .pathTaken(let path, let name): return "\(path) is configured already, as '\(name)'"
    }
  }
}

extension RegistryError {
  /// Why no repository could be found at `path`: none is there, or libgit2 cannot open the one that is.
  static func noRepository(at path: String) -> RegistryError {
    Repository.unreadableReason(near: path).map { .unreadable(reason: $0) } ?? .notARepository(path: path)
  }
}
