/// What a command's words (or an option's value) are, so completion offers the right ones: the same spec the help
/// and the parser use says it.
enum ArgumentKind: Sendable, Equatable {
  case none
  /// `YYYY-MM-DD`, `today`, `yesterday` or `-N`: completion offers the two words.
  case days
  case directories
  case files
  /// One of these words.
  case words([String])
  /// The name of a configured repository.
  case repositories
  /// A config key.
  case configKeys
}
