import Facts
import Support

/// What a command is called, what it takes and how to explain it; help text and parsing both come from it.
struct CommandSpec: Sendable {
  let name: String
  let abstract: String
  /// The usage line without the leading `gitjournal`.
  let usage: String
  let options: [OptionSpec]
  let discussion: String
  let examples: [String]
  /// The command's actions (`repos add`), first word after its name; empty for a command without.
  let actions: [ActionSpec]
  /// What the command's other words are, when it has no actions.
  let arguments: ArgumentKind

  init(
    name: String, abstract: String, usage: String, options: [OptionSpec] = [], discussion: String = "",
    examples: [String] = [], actions: [ActionSpec] = [], arguments: ArgumentKind = .none
  ) {
    self.name = name
    self.abstract = abstract
    self.usage = usage
    self.options = options + [OptionSpec(name: .help, abstract: "Show this help.", short: "h")]
    self.discussion = discussion
    self.examples = examples
    self.actions = actions
    self.arguments = arguments
  }

  /// The action named `name`, or a usage error that suggests the closest one.
  func action(_ name: String) throws(UsageError) -> ActionSpec {
    if let action = actions.first(where: { $0.name == name }) { return action }
    var message = "'\(name)' is not a \(self.name) action"
    if let suggestion = Suggestion.closest(to: name, among: actions.map(\.name)) {
      message += "; did you mean '\(suggestion)'?"
    }
    throw UsageError(message: message, spec: self)
  }

  var helpText: String {
    var text = "\(abstract)\n\nUsage: gitjournal \(usage)\n"
    if !discussion.isEmpty { text += "\n\(Self.wrapped(discussion, width: 100))\n" }
    text += "\nOptions:\n"
    let labels = options.map { option in
      (option.short.map { "-\($0), " } ?? "") + "--\(option.name)" + (option.valueName.map { " <\($0)>" } ?? "")
    }
    let width = (labels.map(\.count).max() ?? 0) + 2
    for (label, option) in zip(labels, options) {
      var line = "  " + label + String(repeating: " ", count: width - label.count) + option.abstract
      if let defaultValue = option.defaultValue { line += " (default: \(defaultValue))" }
      text += line + "\n"
    }
    if !examples.isEmpty {
      text += "\nExamples:\n" + examples.map { "  \($0)\n" }.joined()
    }
    return text
  }
}

extension CommandSpec {
  /// `text` with lines broken between words so none is longer than `width`. A line break in `text` stays, and a
  /// line indented by two spaces (a command to copy) is kept whole.
  static func wrapped(_ text: String, width: Int) -> String {
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if paragraph.hasPrefix("  ") {
        lines.append(String(paragraph))
        continue
      }
      var line = ""
      for word in paragraph.split(separator: " ") {
        if !line.isEmpty && line.count + 1 + word.count > width {
          lines.append(line)
          line = ""
        }
        line += (line.isEmpty ? "" : " ") + word
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }
}

/// One `--option` or `--flag`.
struct OptionSpec: Sendable {
  let name: String
  let abstract: String
  let short: Character?
  /// Set for options that take a value; nil for flags.
  let valueName: String?
  let defaultValue: String?
  let repeatable: Bool
  /// What the value is, for completion: days for a `<day>`, files for a `<file>`, nothing to offer otherwise.
  let values: ArgumentKind

  init(
    name key: OptionKey, abstract: String, short: Character? = nil, valueName: String? = nil,
    defaultValue: String? = nil, repeatable: Bool = false
  ) {
    name = key.name
    self.abstract = abstract
    self.short = short
    self.valueName = valueName
    self.defaultValue = defaultValue
    self.repeatable = repeatable
    values =
      [("day", ArgumentKind.days), ("file", .files), ("folder", .directories)].first { $0.0 == valueName }?.1 ?? .none
  }
}
