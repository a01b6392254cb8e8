import Facts
import GitReader
import Narrative
import Support

/// Arguments split into options, flags and positionals according to a command's spec.
struct ParsedArguments {
  var positionals: [String] = []
  var values: [String: [String]] = [:]
  var flags: Set<String> = []

  /// Parses `arguments`. `-N` (a negative number) is a positional, so `gitjournal show -1` means yesterday.
  init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || !argument.hasPrefix("-") || argument == "-" || Int(argument) != nil {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      var name: String
      var inlineValue: String?
      if argument.hasPrefix("--") {
        name = String(argument.dropFirst(2))
        if let equals = name.firstIndex(of: "=") {
          inlineValue = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
      } else {
        name = String(argument.dropFirst())
      }
      guard let option = spec.options.first(where: { $0.name == name || (name.count == 1 && $0.short == name.first) })
      else {
        let known = spec.options.map { "--" + $0.name }
        var message = "unknown option '\(argument)'"
        if let suggestion = Suggestion.closest(to: "--" + name, among: known) {
          message += "; did you mean '\(suggestion)'?"
        }
        throw UsageError(message: message, spec: spec)
      }
      if option.valueName == nil {
        guard inlineValue == nil else {
          throw UsageError(message: "option '--\(option.name)' takes no value", spec: spec)
        }
        flags.insert(option.name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        guard index < arguments.count else {
          throw UsageError(message: "option '--\(option.name)' needs a value <\(option.valueName!)>", spec: spec)
        }
        value = arguments[index]
        index += 1
      }
      if !option.repeatable, values[option.name] != nil {
        throw UsageError(message: "option '--\(option.name)' was given more than once", spec: spec)
      }
      values[option.name, default: []].append(value)
    }
  }

  /// The last value given for `option`, or nil.
  func value(_ option: OptionKey) -> String? { values[option.name]?.last }
  /// Every value given for a repeatable `option`, in order.
  func values(_ option: OptionKey) -> [String] { values[option.name] ?? [] }
  func has(_ flag: OptionKey) -> Bool { flags.contains(flag.name) }
}

/// A command line that does not fit the command: reported with its usage, exit status 64.
struct UsageError: Error, CustomStringConvertible {
  let message: String
  let spec: CommandSpec?

  var description: String { message }
}

/// The closest known word to a mistyped one, when it is close enough to be what was meant.
enum Suggestion {
  static func closest(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, distance(word, $0)) }.min { $0.1 < $1.1 }
    guard let (candidate, score) = scored, score <= max(2, word.count / 3) else { return nil }
    return candidate
  }

  /// Levenshtein distance.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...max(1, b.count) where !b.isEmpty {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
