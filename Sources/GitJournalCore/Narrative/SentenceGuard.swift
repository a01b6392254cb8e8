import Foundation

/// Keeps the model's words decorative: whatever it says is reduced to one plain sentence, and dropped when
/// it states a number the facts do not contain, is empty or runs on, or looks like an echo of the prompt.
enum SentenceGuard {
  static let maximumLength = 300

  enum Verdict: Equatable {
    case accepted(String)
    case rejected(String)
  }

  static func check(_ raw: String, prompt: String) -> Verdict {
    var text = stripThinking(raw)
    // The first line with words in it: models like to add a second paragraph or a list.
    let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    guard var line = lines.first(where: { !$0.isEmpty }) else { return .rejected("empty answer") }
    line = stripDecoration(line)
    for preamble in ["sentence:", "summary:", "here is the sentence:", "here's the sentence:", "journal:"]
    where line.lowercased().hasPrefix(preamble) {
      line = stripDecoration(String(line.dropFirst(preamble.count)))
    }
    text = firstSentence(line)
    guard !text.isEmpty else { return .rejected("empty answer") }
    if text.hasPrefix("- ") || text.hasPrefix("* ") || text.hasPrefix("#") {
      return .rejected("a list or heading, not a sentence")
    }
    for echo in ["Day:", "Total:", "commits, last one at", "- "] where text.contains(echo) {
      return .rejected("echoes the prompt ('\(echo)')")
    }
    guard text.count <= maximumLength else { return .rejected("longer than \(maximumLength) characters") }
    guard text.contains(where: \.isLetter) else { return .rejected("no words") }
    let allowed = numbers(in: prompt)
    for number in numbers(in: text) where !allowed.contains(number) {
      return .rejected("states the number \(number), which the facts do not contain")
    }
    return .accepted(text)
  }

  /// Removes `<think>…</think>` (also an unclosed one at the start, up to the end of the reasoning).
  static func stripThinking(_ text: String) -> String {
    var result = text
    while let open = result.range(of: "<think>") {
      if let close = result.range(of: "</think>", range: open.upperBound..<result.endIndex) {
        result.removeSubrange(open.lowerBound..<close.upperBound)
      } else {
        result.removeSubrange(open.lowerBound..<result.endIndex)
      }
    }
    return result.replacingOccurrences(of: "</think>", with: "")
  }

  private static func stripDecoration(_ text: String) -> String {
    let wrappers = CharacterSet(charactersIn: "\"'`“”‘’*_ ").union(.whitespaces)
    return text.trimmingCharacters(in: wrappers)
  }

  /// Up to and including the first full stop, question or exclamation mark that ends a sentence.
  static func firstSentence(_ text: String) -> String {
    let characters = Array(text)
    for index in characters.indices where ".!?".contains(characters[index]) {
      let next = index + 1 < characters.count ? characters[index + 1] : " "
      let previous = index > 0 ? characters[index - 1] : " "
      // "3.5" and "e.g." are not sentence ends.
      if next == " " && !(characters[index] == "." && previous.isNumber && next.isNumber) {
        return stripDecoration(String(characters[...index])).appendingPeriodIfNeeded()
      }
    }
    return stripDecoration(text).appendingPeriodIfNeeded()
  }

  private static let numberWords = [
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "hundred": 100, "thousand": 1000, "single": 1, "once": 1, "twice": 2, "dozen": 12,
  ]

  /// Every number stated in `text`, in digits or words (each digit group is one number: "1,200" is 1 and
  /// 200, the same way in the prompt and in the sentence).
  static func numbers(in text: String) -> Set<Int> {
    var found: Set<Int> = []
    var digits = ""
    var word = ""
    func flush() {
      if let number = Int(digits) { found.insert(number) }
      if let number = numberWords[word.lowercased()] { found.insert(number) }
      digits = ""
      word = ""
    }
    for character in text {
      if character.isASCII && character.isNumber {
        if !word.isEmpty { flush() }
        digits.append(character)
      } else if character.isLetter {
        if !digits.isEmpty { flush() }
        word.append(character)
      } else {
        flush()
      }
    }
    flush()
    return found
  }
}

extension String {
  fileprivate func appendingPeriodIfNeeded() -> String {
    guard let last, !".!?".contains(last) else { return self }
    return self + "."
  }
}
