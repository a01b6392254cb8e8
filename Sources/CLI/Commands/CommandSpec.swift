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

  init(
    name: String, abstract: String, usage: String, options: [OptionSpec] = [], discussion: String = "",
    examples: [String] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.usage = usage
    self.options = options + [OptionSpec(name: "help", abstract: "Show this help.", short: "h")]
    self.discussion = discussion
    self.examples = examples
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
  /// `text` with lines broken between words so none is longer than `width`.
  static func wrapped(_ text: String, width: Int) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
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

  init(
    name: String, abstract: String, short: Character? = nil, valueName: String? = nil, defaultValue: String? = nil,
    repeatable: Bool = false
  ) {
    self.name = name
    self.abstract = abstract
    self.short = short
    self.valueName = valueName
    self.defaultValue = defaultValue
    self.repeatable = repeatable
  }
}
