import Facts
import GitReader
import Narrative
import Support

/// ANSI styling for output meant for a person at a terminal. Off when the output is not a terminal or
/// `NO_COLOR` is set (https://no-color.org), so pipes and files get plain text. `NO_COLOR` and `TERM=dumb` take the
/// colours away, not the terminal's layout.
struct TerminalStyle: Sendable {
  /// Colours and bold.
  let isEnabled: Bool
  /// The output is a terminal: text is laid out for a person (a journal file without its marker comments).
  let isTerminal: Bool

  init(output: TextOutput, environment: Environment) {
    let noColor = environment.variables["NO_COLOR"].map { !$0.isEmpty } ?? false
    isTerminal = output.isTerminal
    isEnabled = isTerminal && !noColor && environment.variables["TERM"] != "dumb"
  }

  /// A style for tests and previews: a terminal layout unless said otherwise, with colours or without.
  init(isEnabled: Bool, isTerminal: Bool? = nil) {
    self.isEnabled = isEnabled
    self.isTerminal = isTerminal ?? isEnabled
  }

  func bold(_ text: String) -> String { wrap(text, "1") }
  func dim(_ text: String) -> String { wrap(text, "2") }
  func green(_ text: String) -> String { wrap(text, "32") }
  func red(_ text: String) -> String { wrap(text, "31") }
  func yellow(_ text: String) -> String { wrap(text, "33") }
  func cyan(_ text: String) -> String { wrap(text, "36") }
  /// One of the 256-colour palette's entries, for the heatmap.
  func color256(_ text: String, _ code: Int) -> String { wrap(text, "38;5;\(code)") }

  private func wrap(_ text: String, _ code: String) -> String {
    isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
