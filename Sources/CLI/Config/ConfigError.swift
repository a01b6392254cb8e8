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
  /// A key gitjournal does not know, in a section it knows (`repo.x.privte`), with the closest known key.
  case unknownKey(key: String, suggestion: String?)
  /// A section gitjournal does not know (`[narative]`, `[journal "x"]`), with the closest known section.
  case unknownSection(section: String, key: String, suggestion: String?)
  /// `repo.<name>.*` keys without `repo.<name>.path`: most likely a name typed in another case than the one
  /// that has the path (repository names are case-sensitive, as git's subsections are).
  case repositoryWithoutPath(name: String, suggestion: String?)

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
    case .unknownKey(let key, let suggestion):
      return "config key \(key) is not one gitjournal knows"
        + (suggestion.map { ": did you mean \($0)?" } ?? "; 'gitjournal help config' lists every key")
    case .unknownSection(let section, let key, let suggestion):
      return "config section [\(section)] (key \(key)) is not one gitjournal knows"
        + (suggestion.map { ": did you mean [\($0)]?" } ?? "; 'gitjournal help config' lists every section")
    case .repositoryWithoutPath(let name, let suggestion):
      let start = "config section [repo \"\(name)\"] has no path"
      if let suggestion {
        return start + ": did you mean [repo \"\(suggestion)\"]? Repository names are case-sensitive"
      }
      return start + "; set repo.\(name).path or remove the section"
    }
  }

  /// The section the problem is in (`narrative`, `journal`, `repo`...), when it is about one key.
  var section: String? {
    switch self {
    case .missing, .unreadable, .unwritable: return nil
    case .invalidValue(let key, _, _), .unknownKey(let key, _):
      return key.split(separator: ".").first.map { String($0).lowercased() }
    case .unknownSection(let section, _, _): return section.lowercased()
    case .repositoryWithoutPath: return "repo"
    }
  }
}
