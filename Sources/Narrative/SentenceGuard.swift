import Facts
import GitReader
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keeps the model's words decorative: whatever it says is reduced to one plain sentence, and dropped when it is
/// not one (empty, several lines, a list, a question, a fragment, chatter addressed to the reader, a loop), runs
/// on, echoes the prompt, carries markup (a URL, a Markdown link or image, HTML, a code span or fence, a control or
/// bidirectional control character), states a number the facts do not contain, or says what the facts do not
/// (`Grounding`: words of meaning that are in no subject or name, numbers in another role).
///
/// The rules come from what a real small model answered (SmolLM2-135M-Instruct on llama-server; examples in
/// BENCHMARKS.md and SentenceGuardTests): each one drops a kind of answer it gave, not one imagined. The markup
/// rules keep a Markdown viewer from fetching anything a sentence names (issue 15).
enum SentenceGuard {
  /// Bump whenever a rule changes what is accepted: rejections remembered under an older guard are then asked
  /// again (SentenceCache).
  static let version = 5

  static let maximumLength = 300
  /// Fewer words than this say nothing ("Awesome!", "Work:").
  static let minimumWords = 3

  enum Verdict: Equatable {
    case accepted(String)
    case rejected(String)
  }

  /// `prompt` is the user message the model was first given (its echoes and numbers), `question` its last line,
  /// `grounding` the facts behind it.
  static func check(
    _ raw: String, prompt: String, question: String = Prompt.question, grounding: Grounding
  ) -> Verdict {
    let normalized = stripThinking(raw).replacingEvery("’", with: "'")
    var lines = normalized.split(whereSeparator: \.isNewline).map { stripDecoration(String($0)) }.filter { !$0.isEmpty }
    // "Here is the sentence:" on a line of its own, then the sentence.
    while let first = lines.first, isPreamble(first) { lines.removeFirst() }
    guard var line = lines.first else { return .rejected("empty answer") }
    // Lines that follow a whole sentence are dropped ("I hope this helps!"); lines that continue an unfinished
    // first one are a list or the prompt coming back.
    if lines.count > 1, let last = line.last, !".!?".contains(last) {
      return .rejected("several lines, not one sentence")
    }
    line = stripLeadIn(line, question: question)
    guard !line.isEmpty else { return .rejected("echoes the prompt (its question, and nothing else)") }
    let text = balancingQuotes(firstSentence(line))
    guard !text.isEmpty, text != "." else { return .rejected("empty answer") }
    if text.hasPrefix("- ") || text.hasPrefix("* ") || text.hasPrefix("#") || startsNumberedItem(text) {
      return .rejected("a list or heading, not a sentence")
    }
    for echo in echoes where contains(text, phrase: echo) {
      return .rejected("echoes the prompt ('\(echo)')")
    }
    // "(3 commits)" from a version-1 prompt; "I committed twice:" from version 2's; "app had 3 commits (2 fixes,
    // 1 feature):" from version 4's, the facts read back with their subjects after them.
    if let echo = text.firstMatch(of: #/\(\d+ commits?\)|committed(?: \w+){0,2}:|had \d+ commits?(?: \([^)]*\))?:/#) {
      return .rejected("echoes the prompt ('\(echo.output)')")
    }
    guard text.count <= maximumLength else { return .rejected("longer than \(maximumLength) characters") }
    guard text.contains(where: \.isLetter) else { return .rejected("no words") }
    if let markup = markup(in: text) { return .rejected(markup) }
    // The question's "one sentence" is no fact: without it, "Lens-1" is an invented number.
    let facts = prompt.replacingEvery(question, with: "")
    // The factual line's counts are facts too, though the prompt leaves them out.
    let allowed = numbers(in: facts).union(grounding.counts)
    for number in numbers(in: text) where !allowed.contains(number) {
      return .rejected("states the number \(number), which the facts do not contain")
    }
    let wordCount = text.split(separator: " ").filter { $0.contains(where: \.isLetter) }.count
    guard wordCount >= minimumWords else { return .rejected("too short to say anything") }
    if text.hasSuffix("?") { return .rejected("a question, not a sentence about the day") }
    if text.dropLast().hasSuffix(":") { return .rejected("a fragment ending in a colon") }
    for phrase in chatter where contains(text, phrase: phrase) {
      return .rejected("talks to the reader ('\(phrase)')")
    }
    for word in ["sentence", "prompt"] where contains(text, phrase: word) && !contains(facts, phrase: word) {
      return .rejected("talks about the question ('\(word)')")
    }
    if let repeated = repeatedPhrase(in: text) { return .rejected("repeats itself ('\(repeated)')") }
    if let ungrounded = grounding.problem(in: text) { return .rejected(ungrounded) }
    return .accepted(text)
  }

  /// Why `text` is more than plain words for a Markdown file, or nil: anything a viewer would fetch, run or
  /// render (a URL, a link or image, HTML or an entity, a code span or fence), or a character that moves or hides text.
  static func markup(in text: String) -> String? {
    for scalar in text.unicodeScalars {
      let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
      if scalar.properties.generalCategory == .control { return "contains a control character (\(code))" }
      if scalar.properties.isBidiControl { return "contains a bidirectional control character (\(code))" }
    }
    if let url = text.firstMatch(of: #/(?i)[a-z][a-z0-9+.\-]*://\S*|\bwww\.\S*|\b(?:mailto|data|javascript|file):\S*/#)
    {
      return "contains a URL ('\(url.output.prefix(60))')"
    }
    if let link = text.firstMatch(of: #/!\[|\]\(|\]\[|^\[[^\]]*\]:/#) {
      return "contains a Markdown link or image ('\(link.output)')"
    }
    if let html = text.firstMatch(of: #/<[A-Za-z\/!?][^>]{0,40}|&#?[A-Za-z0-9]+;/#) {
      return "contains HTML ('\(html.output)')"
    }
    if text.contains("`" as Character) { return "contains a code span (a backtick)" }
    // A sentence is a line of its own on the page: `~~~` there opens a fence, and the rest of the page reads as code.
    if text.hasPrefix("~~~") { return "opens a code fence ('~~~')" }
    return nil
  }

  /// Removes `<think>…</think>` (also an unclosed one at the start, up to the end of the reasoning).
  static func stripThinking(_ text: String) -> String {
    var result = text
    while let open = result.firstOccurrence(of: "<think>") {
      if let close = result[open.upperBound...].firstOccurrence(of: "</think>") {
        result.removeSubrange(open.lowerBound..<close.upperBound)
      } else {
        result.removeSubrange(open.lowerBound..<result.endIndex)
      }
    }
    return result.replacingEvery("</think>", with: "")
  }

  private static func stripDecoration(_ text: String) -> String {
    let wrappers: Set<Unicode.Scalar> = ["\"", "'", "`", "“", "”", "‘", "’", "*", "_", " ", "\t"]
    return String(text.trimming { wrappers.contains($0) || $0.properties.generalCategory == .spaceSeparator })
  }

  /// Labels a model puts before its answer, on the answer's line or on a line of their own.
  static let preambles = [
    "here is the sentence", "here's the sentence", "here is a sentence", "here's a sentence", "sentence", "summary",
    "answer", "a", "journal", "diary", "diary entry", "journal entry", "for example",
  ]

  private static func isPreamble(_ line: String) -> Bool {
    var label = line.lowercased()
    if label.hasSuffix(":") { label.removeLast() }
    return preambles.contains(stripDecoration(label))
  }

  /// Drops labels ("Sentence: …", "A: …"), the question read back ("In one sentence, what did I work on today: …")
  /// and "In one sentence, …", keeping what follows.
  static func stripLeadIn(_ line: String, question: String = Prompt.question) -> String {
    var text = line
    while let rest = leadInRemainder(text, question: question) { text = stripDecoration(rest) }
    return text.prefix(1).uppercased() + text.dropFirst()
  }

  private static func leadInRemainder(_ text: String, question asked: String) -> String? {
    let lowered = text.lowercased()
    let question = asked.dropLast().lowercased()
    if lowered.hasPrefix(question), let next = lowered.dropFirst(question.count).first, ":?-".contains(next) {
      return String(text.dropFirst(question.count + 1))
    }
    let leadIns = preambles.map { $0 + ":" } + ["in one sentence,", "in a single sentence,", "in the past tense,"]
    for leadIn in leadIns where lowered.hasPrefix(leadIn) {
      return String(text.dropFirst(leadIn.count))
    }
    return nil
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

  /// A quote the model opened and never closed (or the other way round) is dropped: `I fixed the crash".`
  static func balancingQuotes(_ text: String) -> String {
    var result = text
    if result.filter({ $0 == "\"" }).count % 2 == 1 { result.removeAll { $0 == "\"" } }
    if result.filter({ $0 == "“" }).count != result.filter({ $0 == "”" }).count {
      result.removeAll { $0 == "“" || $0 == "”" }
    }
    return result
  }

  private static func startsNumberedItem(_ text: String) -> Bool {
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty else { return false }
    let rest = text.dropFirst(digits.count)
    return rest.hasPrefix(". ") || rest.hasPrefix(") ")
  }

  /// The prompt's own structure, coming back: version 1's `Day:` and `Total:` lines and project lines, version
  /// 2's question and system prompt.
  static let echoes = [
    "Day:", "Total:", "commits, last one at", "- ", "what did I work on", "in one sentence", "developer's diary",
  ]

  /// An assistant talking to the reader instead of writing the diary. Only phrases a diary about code would not
  /// use: "language model" or "chatbot" alone can be what the day was about.
  static let chatter = [
    "sorry", "as an ai", "ai assistant", "as a chatbot", "i'm a chatbot", "happy to help", "glad to", "let me know",
    "hope this helps", "feel free", "i can't", "i cannot", "i'm not sure", "i'll make sure", "here is", "here's",
    "can you",
  ]

  /// Case-insensitive, and only where a word starts: "Day:" is not found in "Today:".
  static func contains(_ text: String, phrase: String) -> Bool {
    let lowered = text.lowercased()
    let target = phrase.lowercased()
    var start = lowered.startIndex
    while let found = lowered[start...].firstOccurrence(of: target) {
      if found.lowerBound == lowered.startIndex || !lowered[lowered.index(before: found.lowerBound)].isLetter {
        return true
      }
      start = lowered.index(after: found.lowerBound)
    }
    return false
  }

  /// Lowercased runs of letters: "note-app's" is "note", "app", "s".
  static func words(in text: String) -> [String] {
    text.lowercased().split { !$0.isLetter }.map(String.init)
  }

  /// Three words said twice, one of them a word that carries meaning: the mark of a small model looping ("a
  /// private affair, a private affair", "server-side server-side server"). "I worked on …, and I also worked on
  /// …" is not one.
  static func repeatedPhrase(in text: String) -> String? {
    let words = words(in: text)
    guard words.count >= 6 else { return nil }
    var seen: Set<String> = []
    for index in 0...(words.count - 3) {
      let phrase = words[index..<(index + 3)]
      guard phrase.contains(where: { $0.count >= 4 && !plainWords.contains($0) }) else { continue }
      if !seen.insert(phrase.joined(separator: " ")).inserted { return phrase.joined(separator: " ") }
    }
    return nil
  }

  /// Words that repeat in a plain sentence without any loop.
  private static let plainWords: Set<String> = [
    "also", "been", "from", "have", "into", "made", "make", "that", "them", "then", "they", "this", "were", "with",
    "work", "worked", "working",
  ]

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
  fileprivate func leftPadded(to length: Int) -> String {
    String(repeating: "0", count: Swift.max(0, length - count)) + self
  }

  fileprivate func appendingPeriodIfNeeded() -> String {
    guard let last, !".!?".contains(last) else { return self }
    return self + "."
  }
}
