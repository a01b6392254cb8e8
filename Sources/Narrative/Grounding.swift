import Facts
import GitReader
import Support

/// Whether a sentence says only what the prompt told the model: every word that carries meaning comes from the
/// facts (project names, the subjects shown, "a private project", the counts), up to inflection, and every number
/// is stated in the role it has there.
///
/// A small model turns "Start a post about journaling with git" into "a new journaling platform that allows users
/// to share their writing"; the words "platform", "allows", "users" and "share" are in no subject, so the sentence
/// is dropped and the day keeps its factual line. Work named right before "in dotfiles" must be dotfiles' own.
/// What is not checked: word order and sense beyond that ("I fixed the sidebar" for "Add a sidebar" passes, as
/// "fixed" is a word any day may use); synonyms count as new words ("website" for the project "site").
///
/// Words that need no source (`genericWords`, `functionWords`) are short documented lists; README.md prints them.
struct Grounding: Sendable {
  /// Stems of every word the facts contain.
  let stems: Set<String>
  /// Each number written in a shown subject or a project name, with the stems of the words around it there.
  let numberContexts: [String: [Set<String>]]
  /// What a sentence may say of one project.
  struct Project: Sendable {
    let name: String
    /// The words of its name, as the sentence's tokens would be.
    let words: [String]
    let count: Int
    /// The days with its commits (a week's or a month's; 1 for a day).
    let days: Int
    /// Stems of its shown subjects.
    let stems: Set<String>
  }

  let projects: [Project]
  let commitCount: Int
  let projectCount: Int
  let privateProjectCount: Int
  /// A period's numbers of days a sentence may state before "days": the days with commits and the days of the
  /// period. Nil for a day, whose sentence has no such numbers.
  let dayCounts: Set<Int>?

  init(facts: DayFacts) {
    self.init(
      projects: facts.projects.map { project in
        (
          project.name, project.isPrivate, project.commitCount, 1,
          // The kinds' words are facts as the subjects are: computed from them, and given in the prompt.
          project.isPrivate
            ? []
            : project.commits.prefix(Prompt.maximumSubjects).map(\.subject)
              + (project.kinds.isTelling ? [project.kinds.line] : [])
        )
      }, framing: "", commitCount: facts.commitCount, dayCounts: nil)
  }

  /// `projects`: each with its counts and the subjects the prompt showed; `framing`: the prompt's other words, which
  /// a sentence may use too (a period's "week" or busiest day).
  init(
    projects shown: [(name: String, isPrivate: Bool, count: Int, days: Int, subjects: [String])], framing: String,
    commitCount: Int, dayCounts: Set<Int>?
  ) {
    var texts: [String] = ["commit project"]
    var projects: [Project] = []
    for project in shown {
      texts.append(project.name)
      let own = project.subjects.flatMap { Self.tokens(in: $0).compactMap(\.word).map(Self.stem) }
      projects.append(
        Project(
          name: project.name, words: Self.tokens(in: project.name).compactMap(\.word), count: project.count,
          days: project.days, stems: Set(own)))
      texts += project.isPrivate ? ["a private project"] : project.subjects
    }
    var stems = Set(Self.tokens(in: framing).compactMap(\.word).map(Self.stem))
    var numberContexts: [String: [Set<String>]] = [:]
    for text in texts {
      let tokens = Self.tokens(in: text)
      for (index, token) in tokens.enumerated() {
        switch token {
        case .word(let word):
          stems.insert(Self.stem(word))
          if Self.numberWords[word] != nil {
            numberContexts[word, default: []].append(Self.neighbours(of: index, in: tokens))
          }
        case .number(let number): numberContexts[number, default: []].append(Self.neighbours(of: index, in: tokens))
        }
      }
    }
    self.stems = stems
    self.numberContexts = numberContexts
    self.projects = projects
    self.commitCount = commitCount
    projectCount = shown.count
    privateProjectCount = shown.filter(\.isPrivate).count
    self.dayCounts = dayCounts
  }

  /// The counts of commits and of projects (all, private, public), and a period's of days: numbers a sentence may
  /// state.
  var counts: Set<Int> {
    Set([commitCount, projectCount, privateProjectCount, projectCount - privateProjectCount] + projects.map(\.count))
      .union(dayCounts ?? []).union(dayCounts == nil ? [] : projects.map(\.days))
  }

  /// Why `sentence` says more than the facts, or nil when it does not.
  func problem(in sentence: String) -> String? {
    let tokens = Self.tokens(in: sentence)
    var unknown: [String] = []
    for case .word(let word) in tokens where isUngrounded(word) && !unknown.contains(word) {
      unknown.append(word)
    }
    if !unknown.isEmpty {
      let listed = unknown.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
      return "says what the facts do not (\(listed)\(unknown.count > 3 ? ", …" : ""))"
    }
    for index in tokens.indices {
      if let problem = numberProblem(at: index, in: tokens) { return problem }
    }
    if let problem = misattribution(in: tokens) { return problem }
    // "Today I committed twice." is true, and the factual line under it says so already: a sentence has some word
    // besides the counts and the words every such sentence has.
    guard
      tokens.contains(where: { token in
        guard case .word(let word) = token else { return false }
        return Self.isTelling(word)
      })
    else { return "says only what the factual line says" }
    return nil
  }

  /// A word that tells more than the counts: not a small word, a number or a word every sentence about a day has
  /// ("commit", "project", "today").
  private static func isTelling(_ word: String) -> Bool {
    !(functionWords.contains(word) || numberWords[word] != nil || framingStems.contains(stem(word)))
  }

  /// Stems of the words every sentence about a day, a week or a month may have, which say nothing of its work.
  static let framingStems: Set<String> = Set(
    [
      "commit", "committed", "project", "private", "work", "worked", "make", "made", "spend", "spent", "total",
      "day", "today", "time", "week", "month",
    ].map(stem))

  /// Prepositions that put what comes before them under the project named after them: "fixed the sync in notes-app".
  static let attributing: Set<String> = ["in", "for", "of", "to", "on", "into", "at"]

  /// "I worked on api-server (test the rate limiter) in dotfiles": the work named right before "in dotfiles" is
  /// another project's. Only the closest word of meaning before the preposition is looked at, and only when it
  /// belongs to some project's subjects but not to the one named.
  private func misattribution(in tokens: [Token]) -> String? {
    for project in projects where !project.words.isEmpty {
      let named = project.words.map(Optional.some)
      for start in tokens.indices.dropFirst(2) where start + named.count <= tokens.count {
        guard tokens[start..<(start + named.count)].map(\.word) == named,
          let preposition = tokens[start - 1].word, Self.attributing.contains(preposition)
        else { continue }
        // The closest word before it that some project's subjects have (skipping "the" and the like); another
        // project's name first means a list ("3 times to thesis and twice to billing").
        for token in tokens[..<(start - 1)].reversed() {
          guard let word = token.word, word.count > 1, !Self.functionWords.contains(word),
            Self.numberWords[word] == nil
          else { continue }
          if projects.contains(where: { $0.words.contains(word) }) { break }
          let stem = Self.stem(word)
          // A journal word ("committed", "fixed") starts another clause: "…settings screen, and committed once to
          // thesis".
          if Self.genericStems.contains(stem) { break }
          if !projects.contains(where: { $0.stems.contains(stem) }) { continue }
          if project.stems.contains(stem) { break }
          return "puts another project's work under \(project.name) ('\(word) … \(preposition) \(project.name)')"
        }
      }
    }
    return nil
  }

  private func isUngrounded(_ word: String) -> Bool {
    if word.count < 2 || Self.functionWords.contains(word) || Self.numberWords[word] != nil { return false }
    let stem = Self.stem(word)
    if Self.genericStems.contains(stem) || stems.contains(stem) { return false }
    if let sources = Self.impliedStems[stem], !sources.isDisjoint(with: stems) { return false }
    return true
  }

  /// A number is a subject's (next to a word it has there), the number of projects (before "projects"), or a
  /// commit count (in a sentence that speaks of commits: the day's, or that of the project named nearest).
  private func numberProblem(at index: Int, in tokens: [Token]) -> String? {
    let number: String
    let value: Int?
    switch tokens[index] {
    case .number(let digits):
      number = digits
      value = Int(digits)
    case .word(let word):
      guard let wordValue = Self.numberWords[word] else { return nil }
      number = word
      value = wordValue
    }
    if let contexts = numberContexts[number] {
      let around = Self.neighbours(of: index, in: tokens)
      if contexts.contains(where: { $0.isEmpty || !$0.isDisjoint(with: around) }) { return nil }
    }
    if let value {
      let next = tokens[(index + 1)..<min(tokens.count, index + 3)]
      if next.contains(where: { $0.word.map(Self.stem) == "project" }) {
        if [projectCount, privateProjectCount, projectCount - privateProjectCount].contains(value) { return nil }
        return "states \(number) projects, which is not how many there were"
      }
      // "on 4 days", "4 of 7 days", "site on 1 day".
      if let dayCounts, Self.countsDays(at: index, in: tokens) {
        if dayCounts.contains(value) || namedProjectValues(around: index, in: tokens, \.days).contains(value) {
          return nil
        }
        return "states \(number) days, which is neither how many had commits nor how many there were"
      }
      // "3 commits", "committed 3 times", "3 commits to app and one to site".
      if tokens.contains(where: { $0.word.map(Self.stem) == "commit" }) {
        if value == commitCount || namedProjectValues(around: index, in: tokens, \.count).contains(value) {
          return nil
        }
        return "states \(number) commits, which is neither the \(dayCounts == nil ? "day" : "period")'s count nor "
          + "that of the project it names"
      }
    }
    return "states the number \(number) in another role than it has in the facts (\(role(of: number, value)))"
  }

  private func role(of number: String, _ value: Int?) -> String {
    if numberContexts[number] != nil { return "there it is part of a subject" }
    if let value, value == commitCount || projects.contains(where: { $0.count == value }) {
      return "there it is a commit count"
    }
    if let value, let dayCounts, dayCounts.contains(value) || projects.contains(where: { $0.days == value }) {
      return "there it is a count of days"
    }
    return "there it is a count of projects"
  }

  /// Whether the number at `index` counts days: "4 days", "four days", "4 of 7 days".
  private static func countsDays(at index: Int, in tokens: [Token]) -> Bool {
    func isDay(_ position: Int) -> Bool {
      position < tokens.count && tokens[position].word.map(stem) == "day"
    }
    if isDay(index + 1) { return true }
    guard index + 3 < tokens.count, tokens[index + 1].word == "of" else { return false }
    let isNumber: Bool
    switch tokens[index + 2] {
    case .number: isNumber = true
    case .word(let word): isNumber = numberWords[word] != nil
    }
    return isNumber && isDay(index + 3)
  }

  /// A value (commits, days) of the projects named nearest before and nearest after `index` in the sentence: "3
  /// times to thesis", "billing, 2 commits", "3 commits to notes-app and one to site".
  private func namedProjectValues(around index: Int, in tokens: [Token], _ value: (Project) -> Int) -> Set<Int> {
    var before: (position: Int, count: Int)?
    var after: (position: Int, count: Int)?
    for project in projects where !project.words.isEmpty {
      let named = project.words.map(Optional.some)
      for start in tokens.indices where start + named.count <= tokens.count {
        guard tokens[start..<(start + named.count)].map(\.word) == named else { continue }
        if start < index, start > before?.position ?? -1 { before = (start, value(project)) }
        if start > index, start < after?.position ?? Int.max { after = (start, value(project)) }
      }
    }
    return Set([before?.count, after?.count].compactMap { $0 })
  }

  // MARK: Words

  /// A lowercased word (a run of letters) or a number as written (digits, with inner dots or commas: "2.4.0").
  enum Token: Equatable {
    case word(String)
    case number(String)

    var word: String? {
      if case .word(let word) = self { return word }
      return nil
    }
  }

  static func tokens(in text: String) -> [Token] {
    var tokens: [Token] = []
    let characters = Array(text.lowercased())
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if character.isLetter {
        var word = ""
        while index < characters.count, characters[index].isLetter {
          word.append(characters[index])
          index += 1
        }
        tokens.append(.word(word))
      } else if character.isASCII && character.isNumber {
        var number = ""
        while index < characters.count {
          let current = characters[index]
          let continues =
            (current == "." || current == ",") && index + 1 < characters.count && characters[index + 1].isASCII
            && characters[index + 1].isNumber
          guard (current.isASCII && current.isNumber) || continues else { break }
          number.append(current)
          index += 1
        }
        tokens.append(.number(number))
      } else {
        index += 1
      }
    }
    return tokens
  }

  /// Stems of the words that carry meaning up to two words either side of `index`.
  static func neighbours(of index: Int, in tokens: [Token]) -> Set<String> {
    var result: Set<String> = []
    for other in max(0, index - 2)...min(tokens.count - 1, index + 2) where other != index {
      if let word = tokens[other].word, word.count > 1, !functionWords.contains(word) { result.insert(stem(word)) }
    }
    return result
  }

  /// The same stem for a word's inflections: "fixes", "fixed", "fixing" and "fix" are "fix"; "notes" and "note"
  /// are "not"; "committed" and "commits" are "commit"; "taught" is "teach". Not a real stemmer: it only needs to
  /// map a sentence's word and the facts' word to one key, and to never map two words of the facts to one.
  static func stem(_ word: String) -> String {
    var stem = irregularForms[word] ?? word
    func drop(_ count: Int, adding ending: String = "") {
      stem = String(stem.dropLast(count)) + ending
    }
    func hasVowel(_ text: Substring) -> Bool { text.contains { "aeiouy".contains($0) } }
    // Plurals and third persons.
    if stem.count > 4 && stem.hasSuffix("ies") {
      drop(3, adding: "y")
    } else if stem.count > 3 && ["ches", "shes", "xes", "zes", "sses"].contains(where: stem.hasSuffix) {
      drop(2)
    } else if stem.count > 3 && stem.hasSuffix("s") && !["ss", "us", "is"].contains(where: stem.hasSuffix) {
      drop(1)
    }
    // Past tenses and participles.
    if stem.count > 4 && stem.hasSuffix("ied") {
      drop(3, adding: "y")
    } else if stem.hasSuffix("ing") && hasVowel(stem.dropLast(3)) && stem.count > 4 {
      drop(3)
    } else if stem.hasSuffix("ed") && hasVowel(stem.dropLast(2)) && stem.count > 3 {
      drop(2)
    }
    if stem.count >= 3 && stem.hasSuffix("e") { drop(1) }
    // "committ", "runn", "add": one letter of a doubled consonant at the end.
    if stem.count >= 3, let last = stem.last, !"aeiouy".contains(last), stem.dropLast().last == last { drop(1) }
    return stem
  }

  /// Words that say nothing of their own: articles, pronouns, prepositions, conjunctions, auxiliaries.
  static let functionWords: Set<String> = [
    "a", "an", "the", "i", "me", "my", "mine", "myself", "we", "us", "our", "it", "its", "this", "that", "these",
    "those", "there", "and", "or", "but", "nor", "so", "also", "then", "than", "as", "of", "in", "on", "at", "to",
    "for", "from", "by", "with", "without", "into", "onto", "over", "under", "about", "after", "before", "between",
    "through", "during", "across", "around", "within", "up", "down", "out", "off", "again", "is", "are", "was",
    "were", "be", "been", "being", "am", "do", "does", "did", "done", "have", "has", "had", "having", "which", "who",
    "what", "when", "where", "while", "some", "all", "both", "each", "other", "more", "just", "still", "too", "not",
    "no", "own", "they", "them", "their", "s", "t", "d", "ll", "m", "re", "ve", "didn", "wasn",
  ]

  /// Journal words any day may use (their inflections too). "fixed", "bug" and "new" would otherwise sink most
  /// good sentences; "bug", "new" and "feature" need a fact behind them (`impliedStems`).
  static let genericWords: [String] = [
    "work", "fix", "patch", "add", "create", "use", "improve", "improvement", "update", "change", "make", "start",
    "finish", "continue",
    "complete", "write", "clean", "cleanup", "tidy", "tweak", "polish", "rework", "spend", "commit", "time", "project",
    "code", "repository", "repo", "task", "thing", "day", "today", "progress", "small", "minor",
  ]

  static let genericStems = Set(genericWords.map(stem))

  /// Words allowed only when the facts have one of these: "a new tag filter" for "Add a tag filter", "a bug" for
  /// "Fix the crash", "a feature" for "Add export".
  static let impliedWords: [String: [String]] = [
    "new": ["add", "create", "start", "introduce", "initial", "new", "first"],
    "bug": ["fix", "bug", "crash", "error", "issue", "flaky", "regression"],
    "feature": ["add", "implement", "introduce", "support", "feature"],
  ]

  static let impliedStems: [String: Set<String>] = Dictionary(
    uniqueKeysWithValues: impliedWords.map { (stem($0.key), Set($0.value.map(stem))) })

  /// Number words a sentence may use for a count, and their values.
  static let numberWords: [String: Int] = [
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "once": 1, "twice": 2, "single": 1,
  ]

  /// Past forms that the suffix rules cannot map to their verb.
  static let irregularForms: [String: String] = [
    "taught": "teach", "wrote": "write", "written": "write", "rewrote": "rewrite", "rewritten": "rewrite",
    "made": "make", "built": "build", "rebuilt": "rebuild", "began": "begin", "begun": "begin", "ran": "run",
    "went": "go", "gone": "go", "got": "get", "gotten": "get", "kept": "keep", "left": "leave", "brought": "bring",
    "found": "find", "thought": "think", "spent": "spend", "sent": "send", "drew": "draw", "drawn": "draw",
    "chose": "choose", "chosen": "choose", "took": "take", "taken": "take", "gave": "give", "given": "give",
    "held": "hold", "led": "lead", "lost": "lose", "met": "meet", "paid": "pay", "said": "say", "sold": "sell",
    "told": "tell", "shown": "show", "broke": "break", "broken": "break", "froze": "freeze", "frozen": "freeze",
    "hid": "hide", "hidden": "hide", "bound": "bind", "fed": "feed", "fell": "fall", "fallen": "fall", "felt": "feel",
    "caught": "catch", "understood": "understand", "undid": "undo", "undone": "undo", "threw": "throw",
    "thrown": "throw", "stuck": "stick", "struck": "strike", "swept": "sweep", "upheld": "uphold", "wore": "wear",
  ]
}
