import Facts
import GitReader
import Journal
import Narrative
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// gitjournal's settings, typed and checked. Built from the config file, or, when there is none, from the
/// repository that contains the current directory.
public struct Configuration: Sendable {
  public var journalDirectory: String
  /// Emails whose commits count; empty means each repository's own `user.email`.
  public var authors: [String]
  public var timeZone: TimeZoneRules
  public var dayStartMinutes: Int
  public var includeMerges: Bool
  /// Files left out of files-changed and line counts (`journal.excludePaths`): git pathspec patterns.
  public var excludePaths: [String] = []
  /// Authors `--all-authors` still leaves out (`journal.ignoreAuthors`): emails or globs.
  public var ignoredAuthors: [String] = []
  /// The first day of a week (`show --week`, the weekly page); Monday, as in ISO 8601, unless configured.
  public var weekStart: Weekday
  /// Day pages link their neighbours; a page per week and per month (`journal.links`, `weekly`, `monthly`).
  public var links = true
  public var weekly = true
  public var monthly = true
  /// This machine's name in the journal's records (`journal.host`; default the host name, sanitised).
  public var host: String
  /// Whether the day records go in the journal folder, for the other machines that share it (the default), or
  /// in the state folder (`journal.shareFacts = false`).
  public var shareFacts: Bool
  public var repositories: [RepositoryEntry]
  /// `journal.include`: the global hook registers only a repository one of these matches (any, when empty).
  var include: [PathGlob]
  /// `journal.exclude`: repositories the global hook, `install`, `repos add` and `repos scan` never register.
  var exclude: [PathGlob]
  /// Sections with `repo.<name>.exclude = true`: never journaled, never registered again.
  var excludedRepositories: [RepositoryEntry]
  public var narrative: NarrativeSettings
  /// True when the config file exists; false when gitjournal fell back to the current repository.
  public var hasConfigFile: Bool
  public var configPath: String

  public var calendar: JournalCalendar { JournalCalendar(timeZone: timeZone, dayStartMinutes: dayStartMinutes) }

  /// The pages written besides the days', and how pages link.
  var pages: JournalWriter.Pages {
    JournalWriter.Pages(links: links, weekly: weekly, monthly: monthly, weekStart: weekStart)
  }

  /// What the facts are read from, with line statistics cached under `cacheDirectory`.
  func factsSources(cacheDirectory: String?) -> FactsSources {
    var sources = FactsSources(
      repositories: repositories, authors: authors, includeMerges: includeMerges, calendar: calendar,
      cacheDirectory: cacheDirectory)
    sources.excludePaths = excludePaths
    sources.ignoredAuthors = ignoredAuthors
    return sources
  }

  /// Loads the config at `environment.configPath`. Without that file: the repository containing the current
  /// directory with defaults, unless the environment requires the file (the hook), which then fails. Any problem
  /// in the file (an unknown key or section, a value out of range, a repository without a path) is an error: the
  /// first one is thrown.
  public static func load(_ environment: Environment) throws(ConfigError) -> Configuration {
    let (configuration, problems) = try read(environment)
    if let problem = problems.first { throw problem }
    return configuration
  }

  /// Reads the config at `environment.configPath` and returns what could be taken from it with every problem
  /// found, in file order (`doctor` shows them all). A value with a problem keeps its default. Throws only when
  /// the file cannot be read.
  public static func read(_ environment: Environment) throws(ConfigError) -> (Configuration, [ConfigError]) {
    let path = environment.configPath
    let entries = try ConfigFile(path: path).entries(cacheDirectory: environment.speedCacheDirectory)
    var problems: [ConfigError] = []
    var configuration = Configuration(entries: entries, environment: environment, problems: &problems)
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
    return (configuration, problems)
  }

  /// The hook's reading: a problem outside the `narrative` section is thrown (the hook logs it and writes
  /// nothing); problems only in `narrative` turn the model off, so nothing from that section is used and no
  /// request is made, and the first of them is returned for the log.
  static func loadForHook(_ environment: Environment) throws(ConfigError) -> (Configuration, ConfigError?) {
    var (configuration, problems) = try read(environment)
    if let problem = problems.first(where: { $0.section != "narrative" }) { throw problem }
    guard let problem = problems.first else { return (configuration, nil) }
    configuration.narrative = NarrativeSettings()
    configuration.narrative.engine = .off
    return (configuration, problem)
  }

  /// The strict reading of some entries: the first problem is thrown.
  init(entries: [ConfigFile.Entry], environment: Environment) throws(ConfigError) {
    var problems: [ConfigError] = []
    self.init(entries: entries, environment: environment, problems: &problems)
    if let problem = problems.first { throw problem }
  }

  /// Relative paths (`journal.dir`, `repo.<name>.path`) are taken from the config file's folder, never the current
  /// directory: the hook runs in whichever repository is committing.
  init(entries: [ConfigFile.Entry], environment: Environment, problems: inout [ConfigError]) {
    journalDirectory = environment.absolute("~/journal")
    authors = []
    // The system's zone is read after the entries, only when none of them names one.
    timeZone = .utc
    var isZoneConfigured = false
    dayStartMinutes = 0
    includeMerges = false
    weekStart = .monday
    host = HostName.current
    shareFacts = true
    repositories = []
    include = []
    exclude = []
    excludedRepositories = []
    narrative = NarrativeSettings()
    hasConfigFile = false
    configPath = environment.configPath
    let folder = PathText.folder(of: configPath)

    // The sections in file order, found by name: one hash lookup per entry of a hundred `[repo]` sections.
    var sections: [RepositoryEntry] = []
    var sectionIndex: [String: Int] = Dictionary(minimumCapacity: entries.count)
    var emptyPaths: Set<String> = []
    var excludedNames: Set<String> = []
    for entry in entries {
      let parts = Self.split(entry.name)
      do throws(ConfigError) {
        switch (parts.section, parts.subsection, parts.key) {
        // First: a config of many repositories is mostly their sections.
        case ("repo", let name?, let key):
          let section: Int
          if let known = sectionIndex[name] {
            section = known
          } else {
            section = sections.count
            sectionIndex[name] = section
            sections.append(RepositoryEntry(name: name, path: "", isPrivate: false))
          }
          switch key {
          case "path":
            guard !entry.value.isEmpty else {
              emptyPaths.insert(name)
              throw .invalidValue(key: "repo.\(name).path", value: entry.value, expected: "a repository's folder")
            }
            // Made absolute after the loop, all at once (see `Environment.absolute(_:relativeTo:)`).
            sections[section].path = entry.value
          case "private":
            sections[section].isPrivate = try Self.parseBool(entry.value, key: "repo.\(name).private")
          case "retired":
            guard let seconds = RetirementTime.parse(entry.value) else {
              throw .invalidValue(
                key: "repo.\(name).retired", value: entry.value,
                expected: "a UTC time such as 2026-12-01T09:30:00Z (set by 'gitjournal uninstall')")
            }
            sections[section].retiredAt = seconds
          case "exclude":
            if try Self.parseBool(entry.value, key: "repo.\(name).exclude") {
              excludedNames.insert(name)
            } else {
              excludedNames.remove(name)
            }
          case "excludepaths":
            sections[section].excludePaths.append(
              try Self.parseExcludePath(entry.value, key: "repo.\(name).excludePaths"))
          default:
            let suggestion = Suggestion.closest(to: key, among: Self.repositoryKeys)
            throw .unknownKey(key: "repo.\(name).\(key)", suggestion: suggestion.map { "repo.\(name).\($0)" })
          }
        case ("journal", nil, "dir"):
          guard !entry.value.isEmpty else {
            throw .invalidValue(key: "journal.dir", value: entry.value, expected: "a folder such as ~/journal")
          }
          journalDirectory = environment.absolute(entry.value, relativeTo: folder)
        case ("journal", nil, "author"):
          // A value that cannot be an email matches no commit: the journal would empty itself at the next commit.
          guard Self.canBeEmail(entry.value) else {
            throw .invalidValue(
              key: "journal.author", value: entry.value,
              expected: "an email address such as `git config user.email` gives (name@example.com)")
          }
          authors.append(entry.value)
        case ("journal", nil, "timezone"):
          guard let zone = TimeZoneRules(identifier: entry.value, folder: environment.timeZoneFolder) else {
            throw .invalidValue(
              key: "journal.timezone", value: entry.value,
              expected:
                "a time zone of \(environment.timeZoneFolder) such as Europe/Paris (Debian's tzdata package has them)")
          }
          timeZone = zone
          isZoneConfigured = true
        case ("journal", nil, "daystart"):
          guard let minutes = Self.parseClockTime(entry.value) else {
            throw .invalidValue(
              key: "journal.dayStart", value: entry.value, expected: "a time of day HH:MM such as 04:00")
          }
          dayStartMinutes = minutes
        case ("journal", nil, "merges"):
          includeMerges = try Self.parseBool(entry.value, key: "journal.merges")
        case ("journal", nil, "weekstart"):
          guard let weekday = Weekday(name: entry.value) else {
            throw .invalidValue(
              key: "journal.weekStart", value: entry.value, expected: "a weekday such as monday or sunday")
          }
          weekStart = weekday
        case ("journal", nil, "links"):
          links = try Self.parseBool(entry.value, key: "journal.links")
        case ("journal", nil, "weekly"):
          weekly = try Self.parseBool(entry.value, key: "journal.weekly")
        case ("journal", nil, "monthly"):
          monthly = try Self.parseBool(entry.value, key: "journal.monthly")
        case ("journal", nil, "host"):
          guard HostName.isValid(entry.value) else {
            throw .invalidValue(
              key: "journal.host", value: entry.value,
              expected:
                "a machine name of letters, digits, '-', '_' and '.' (at most 64, not 'conflicts') such as laptop")
          }
          host = entry.value
        case ("journal", nil, "sharefacts"):
          shareFacts = try Self.parseBool(entry.value, key: "journal.shareFacts")
        case ("journal", nil, "include"), ("journal", nil, "exclude"):
          guard let glob = PathGlob(entry.value, home: environment.home) else {
            throw .invalidValue(
              key: "journal.\(parts.key)", value: entry.value,
              expected: "a folder glob from / or ~/ (~/code/*), or a folder name without '/' (*-scratch)")
          }
          if parts.key == "include" { include.append(glob) } else { exclude.append(glob) }
        case ("journal", nil, "excludepaths"):
          excludePaths.append(try Self.parseExcludePath(entry.value, key: "journal.excludePaths"))
        case ("journal", nil, "ignoreauthors"):
          guard !entry.value.isEmpty, !entry.value.contains(where: \.isWhitespace) else {
            throw .invalidValue(
              key: "journal.ignoreAuthors", value: entry.value,
              expected: "an email or a glob such as *[bot]@users.noreply.github.com")
          }
          ignoredAuthors.append(entry.value)
        case ("journal", nil, let key):
          throw .unknownKey(key: "journal.\(key)", suggestion: Self.closestKey(to: "journal.\(key)"))
        case ("narrative", nil, let key):
          try narrative.apply(key: key, value: entry.value)
        case ("repo", nil, let key):
          throw .unknownKey(key: "repo.\(key)", suggestion: "repo.<name>.\(key) (a [repo \"<name>\"] section)")
        case ("include", nil, "path"), ("includeif", _?, "path"):
          // git's own includes: libgit2 has read the included file's entries already.
          continue
        case (let section, let subsection, _):
          let shown = subsection.map { "\(section) \"\($0)\"" } ?? section
          let suggestion = Suggestion.closest(to: section, among: ["journal", "narrative", "repo"])
          throw .unknownSection(
            section: shown, key: entry.name,
            suggestion: suggestion.map { $0 == "repo" ? "repo \"\(subsection ?? "<name>")\"" : $0 })
        }
      } catch {
        problems.append(error)
      }
    }
    if !isZoneConfigured { timeZone = environment.systemTimeZone }
    for (index, path) in environment.absolute(sections.map(\.path), relativeTo: folder).enumerated() {
      sections[index].path = path
    }
    for name in sections.filter(\.path.isEmpty).map(\.name) where !emptyPaths.contains(name) {
      // A name with a path that differs only in case is the likely meaning (`[repo "Sec"]` beside `[repo "sec"]`).
      let withPath = sections.filter { !$0.path.isEmpty }.map(\.name)
      let suggestion =
        withPath.first { $0.lowercased() == name.lowercased() } ?? Suggestion.closest(to: name, among: withPath)
      problems.append(.repositoryWithoutPath(name: name, suggestion: suggestion))
    }
    let configured = sections.filter { !$0.path.isEmpty }
    repositories = configured.filter { !excludedNames.contains($0.name) }
    excludedRepositories = configured.filter { excludedNames.contains($0.name) }
  }

  /// Every key `help config` lists, for "did you mean".
  static let knownKeys =
    [
      "journal.dir", "journal.author", "journal.timezone", "journal.dayStart", "journal.merges", "journal.weekStart",
      "journal.links", "journal.weekly", "journal.monthly",
      "journal.host", "journal.shareFacts",
      "journal.include", "journal.exclude",
      "journal.excludePaths", "journal.ignoreAuthors",
    ] + NarrativeSettings.keys

  /// The keys of a `[repo "<name>"]` section.
  static let repositoryKeys = ["path", "private", "retired", "exclude", "excludePaths"]

  /// Keys that may be given several times, each value counting (the others keep their last value).
  static let repeatableKeys = [
    "journal.author", "journal.include", "journal.exclude", "journal.excludePaths", "journal.ignoreAuthors",
    "repo.<name>.excludePaths",
  ]

  /// Whether `value` can be the email of a commit's author: something, an `@`, something, with no white space and no
  /// angle bracket (git would not write them in an email).
  static func canBeEmail(_ value: String) -> Bool {
    guard let at = value.lastIndex(of: "@"), at != value.startIndex, value.index(after: at) != value.endIndex else {
      return false
    }
    return !value.contains { $0.isWhitespace || $0 == "<" || $0 == ">" }
  }

  static func isRepeatable(_ name: String) -> Bool {
    let parts = split(name)
    let lowered = (parts.subsection == nil ? "\(parts.section).\(parts.key)" : "\(parts.section).<name>.\(parts.key)")
    return repeatableKeys.contains { $0.lowercased() == lowered.lowercased() }
  }

  /// `name` as `help config` spells it (`journal.daystart` -> `journal.dayStart`); unknown keys as they are.
  static func spelling(of name: String) -> String {
    let parts = split(name)
    if let subsection = parts.subsection, parts.section == "repo" {
      let key = repositoryKeys.first { $0.lowercased() == parts.key } ?? parts.key
      return "repo.\(subsection).\(key)"
    }
    return knownKeys.first { $0.lowercased() == name.lowercased() } ?? name
  }

  /// The known key closest to `key`, compared without case (git's own keys are case-insensitive).
  static func closestKey(to key: String) -> String? {
    guard let match = Suggestion.closest(to: key.lowercased(), among: loweredKnownKeys) else { return nil }
    return knownKeys[loweredKnownKeys.firstIndex(of: match) ?? 0]
  }

  private static let loweredKnownKeys = knownKeys.map { $0.lowercased() }

  /// `repo.my.app.path` -> ("repo", "my.app", "path"): the subsection is everything between the first and
  /// last dot.
  /// The dots are found among the bytes, as git splits the name: a search by `Character` showed in the hook's
  /// instructions, twice per configured repository. The bytes are looked at in one buffer: through
  /// `Substring.UTF8View`'s indices the same work cost as much again (`bench/instructions.sh`).
  static func split(_ name: String) -> (section: String, subsection: String?, key: String) {
    var name = name
    return name.withUTF8 { bytes in
      func text(_ part: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[part]), as: UTF8.self)
      }
      let dot = UInt8(ascii: ".")
      guard let first = bytes.firstIndex(of: dot), let last = bytes.lastIndex(of: dot) else {
        return (text(0..<bytes.count), nil, "")
      }
      // libgit2 gives section and key names lowercased already: `lowercased()`, which works by Unicode scalars,
      // only for a name with an ASCII capital in it (or beyond ASCII).
      func lowered(_ part: Range<Int>) -> String {
        bytes[part].contains { $0 >= 0x80 || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
          ? text(part).lowercased() : text(part)
      }
      return (lowered(0..<first), first == last ? nil : text((first + 1)..<last), lowered((last + 1)..<bytes.count))
    }
  }

  /// A git pathspec pattern, without magic, from the top of the repository.
  static func parseExcludePath(_ text: String, key: String) throws(ConfigError) -> String {
    if let problem = PathFilter.problem(with: text) {
      throw .invalidValue(
        key: key, value: text,
        expected: "a path pattern from the top of the repository such as *.lock or dist/ (this one is \(problem))")
    }
    return text
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
