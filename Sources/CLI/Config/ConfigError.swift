import Facts
import GitReader
import Journal
import Narrative
import Support

/// A config problem, worded so the user knows which key or file to fix and how.
public enum ConfigError: Error, CustomStringConvertible, Equatable, Sendable {
  /// Only where a config file is required (the hook): elsewhere no file means the current repository.
  case missing(path: String)
  case unreadable(path: String, reason: String)
  case unwritable(path: String, reason: String)
  case invalidValue(key: String, value: String, expected: String)

  public var description: String {
    switch self {
    case .missing(let path):
      return "the config file \(path) does not exist"
    case .unreadable(let path, let reason):
      return "cannot read the config file \(path): \(reason); fix it with 'git config -f \(path) --edit'"
    case .unwritable(let path, let reason):
      return "cannot write the config file \(path): \(reason)"
    case .invalidValue(let key, let value, let expected):
      return "config key \(key) has the value '\(value)', which is not \(expected)"
    }
  }
}
