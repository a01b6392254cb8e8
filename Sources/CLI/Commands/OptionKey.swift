/// The name of a command-line option (`--all-authors`), one constant each: a command declares its options and
/// looks their values up by these, so a misspelt name does not compile (a string would look up nothing and give
/// nil, silently).
struct OptionKey: Hashable, Sendable {
  /// As typed after `--`.
  let name: String

  private init(_ name: String) { self.name = name }

  static let allAuthors = OptionKey("all-authors")
  static let config = OptionKey("config")
  static let days = OptionKey("days")
  static let depth = OptionKey("depth")
  static let dryRun = OptionKey("dry-run")
  static let forget = OptionKey("forget")
  static let format = OptionKey("format")
  static let global = OptionKey("global")
  static let help = OptionKey("help")
  static let host = OptionKey("host")
  static let install = OptionKey("install")
  static let json = OptionKey("json")
  static let keepConfig = OptionKey("keep-config")
  static let month = OptionKey("month")
  static let name = OptionKey("name")
  static let names = OptionKey("names")
  static let noNarrative = OptionKey("no-narrative")
  static let retryAfterPause = OptionKey("retry-after-pause")
  static let settle = OptionKey("settle")
  static let since = OptionKey("since")
  static let until = OptionKey("until")
  static let week = OptionKey("week")
  static let weeks = OptionKey("weeks")
  static let yes = OptionKey("yes")
}
