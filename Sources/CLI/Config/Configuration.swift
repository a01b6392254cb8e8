import Facts
import Foundation
import GitReader
import Journal
import Narrative
import Support

/// gitjournal's settings, typed and checked. Built from the config file, or, when there is none, from the
/// repository that contains the current directory.
public struct Configuration: Sendable {
  public var journalDirectory: String
  /// Emails whose commits count; empty means each repository's own `user.email`.
  public var authors: [String]
  public var timeZone: TimeZone
  public var dayStartMinutes: Int
  public var includeMerges: Bool
  public var repositories: [RepositoryEntry]
  public var narrative: NarrativeSettings
  /// True when the config file exists; false when gitjournal fell back to the current repository.
  public var hasConfigFile: Bool
  public var configPath: String

  public var calendar: JournalCalendar { JournalCalendar(timeZone: timeZone, dayStartMinutes: dayStartMinutes) }

  /// What the facts are read from, with line statistics cached under `cacheDirectory`.
  func factsSources(cacheDirectory: String?) -> FactsSources {
    FactsSources(
      repositories: repositories, authors: authors, includeMerges: includeMerges, calendar: calendar,
      cacheDirectory: cacheDirectory)
  }

  /// Loads the config at `environment.configPath`. Without that file: the repository containing the current
  /// directory with defaults, unless the environment requires the file (the hook), which then fails.
  public static func load(_ environment: Environment) throws(ConfigError) -> Configuration {
    let path = environment.configPath
    let entries = try ConfigFile(path: path).entries()
    var configuration = try Configuration(entries: entries, environment: environment)
    configuration.configPath = path
    configuration.hasConfigFile = access(path, F_OK) == 0
    // A hook run by a GUI client without the variable that names the config would otherwise journal the
    // committing repository, and send its subjects to the model, whatever the config says about it.
    if !configuration.hasConfigFile && environment.requiresConfigFile { throw .missing(path: path) }
    if !configuration.hasConfigFile, configuration.repositories.isEmpty,
      let current = Repository.discover(from: environment.currentDirectory)
    {
      configuration.repositories = [
        RepositoryEntry(name: RepositoryEntry.defaultName(forPath: current), path: current, isPrivate: false)
      ]
    }
    return configuration
  }

  init(entries: [ConfigFile.Entry], environment: Environment) throws(ConfigError) {
    journalDirectory = environment.absolute("~/journal")
    authors = []
    timeZone = environment.systemTimeZone
    dayStartMinutes = 0
    includeMerges = false
    repositories = []
    narrative = NarrativeSettings()
    hasConfigFile = false
    configPath = environment.configPath

    var repositoriesByName: [String: RepositoryEntry] = [:]
    var repositoryOrder: [String] = []
    for entry in entries {
      let parts = Self.split(entry.name)
      switch (parts.section, parts.subsection, parts.key) {
      case ("journal", nil, "dir"):
        journalDirectory = environment.absolute(entry.value)
      case ("journal", nil, "author"):
        authors.append(entry.value)
      case ("journal", nil, "timezone"):
        guard let zone = TimeZone(identifier: entry.value) else {
          throw .invalidValue(
            key: "journal.timezone", value: entry.value, expected: "an IANA time zone such as Europe/Paris")
        }
        timeZone = zone
      case ("journal", nil, "daystart"):
        guard let minutes = Self.parseClockTime(entry.value) else {
          throw .invalidValue(
            key: "journal.dayStart", value: entry.value, expected: "a time of day HH:MM such as 04:00")
        }
        dayStartMinutes = minutes
      case ("journal", nil, "merges"):
        includeMerges = try Self.parseBool(entry.value, key: "journal.merges")
      case ("narrative", nil, let key):
        try narrative.apply(key: key, value: entry.value)
      case ("repo", let name?, let key):
        if repositoriesByName[name] == nil {
          repositoriesByName[name] = RepositoryEntry(name: name, path: "", isPrivate: false)
          repositoryOrder.append(name)
        }
        if key == "path" { repositoriesByName[name]!.path = environment.absolute(entry.value) }
        if key == "private" {
          repositoriesByName[name]!.isPrivate = try Self.parseBool(entry.value, key: "repo.\(name).private")
        }
        if key == "retired" {
          guard let seconds = RetirementTime.parse(entry.value) else {
            throw .invalidValue(
              key: "repo.\(name).retired", value: entry.value,
              expected: "a UTC time such as 2026-12-01T09:30:00Z (set by 'gitjournal uninstall')")
          }
          repositoriesByName[name]!.retiredAt = seconds
        }
      default:
        continue
      }
    }
    repositories = repositoryOrder.compactMap { repositoriesByName[$0] }.filter { !$0.path.isEmpty }
  }

  /// `repo.my.app.path` -> ("repo", "my.app", "path"): the subsection is everything between the first and
  /// last dot.
  static func split(_ name: String) -> (section: String, subsection: String?, key: String) {
    guard let first = name.firstIndex(of: "."), let last = name.lastIndex(of: ".") else { return (name, nil, "") }
    let section = String(name[..<first])
    let key = String(name[name.index(after: last)...]).lowercased()
    let subsection = first == last ? nil : String(name[name.index(after: first)..<last])
    return (section.lowercased(), subsection, key)
  }

  static func parseClockTime(_ text: String) -> Int? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
    else { return nil }
    return hours * 60 + minutes
  }

  /// git's own boolean words (true/yes/on/1, false/no/off/0), via libgit2.
  static func parseBool(_ text: String, key: String) throws(ConfigError) -> Bool {
    guard let value = GitConfig.parseBool(text) else {
      throw .invalidValue(key: key, value: text, expected: "a boolean (true or false)")
    }
    return value
  }
}
