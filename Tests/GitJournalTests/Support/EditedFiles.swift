/// Five files in two folders edited at random, a commit at a time: each commit rewrites one to three of them,
/// changing or inserting a few lines, so that git stores most of their versions as deltas of one another.
struct EditedFiles {
  static let paths = ["a.txt", "b.txt", "src/c.swift", "src/deep/d.md", "e.txt"]

  /// The lines of a file when it is first written.
  let initialLines: Int
  /// Each file's lines as the last commit left them (a file removed from here is made anew at its next edit).
  var files: [String: [String]] = [:]

  init(initialLines: Int) {
    self.initialLines = initialLines
  }

  /// The changes of commit `index`: one to three files edited.
  mutating func changes(forCommit index: Int, using random: inout SeededGenerator) -> [FastImportScript.Change] {
    var changes: [FastImportScript.Change] = []
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      let path = Self.paths[Int.random(in: 0..<Self.paths.count, using: &random)]
      var lines = files[path] ?? (0..<initialLines).map { "line \($0) of \(path)" }
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        let position = Int.random(in: 0..<lines.count, using: &random)
        if Bool.random(using: &random) {
          lines[position] = "edited \(index)"
        } else {
          lines.insert("new \(index)", at: position)
        }
      }
      files[path] = lines
      changes.append(.write(path: path, content: Self.content(of: lines)))
    }
    return changes
  }

  /// A file's text: its lines, each ended by a line feed.
  static func content(of lines: [String]) -> String {
    lines.joined(separator: "\n") + "\n"
  }

  /// A history of `commits` commits on `main`, an hour apart from 2026-03-01: each edits files as
  /// `changes(forCommit:using:)` does, with what `more` adds to it (a deletion, a rename).
  static func script(
    commits: Int, seed: UInt64, initialLines: Int,
    more: (Int, inout EditedFiles) -> [FastImportScript.Change] = { _, _ in [] }
  ) -> FastImportScript {
    var random = SeededGenerator(seed: seed)
    var edited = EditedFiles(initialLines: initialLines)
    var script = FastImportScript()
    var time: Int64 = 1_772_323_200
    for index in 0..<commits {
      let changes = edited.changes(forCommit: index, using: &random) + more(index, &edited)
      time += 3600
      script.commit(
        branch: "main", email: TemporaryRepository.email, authorTime: time, committerTime: time, zone: "+0000",
        message: "Change \(index)", changes: changes)
    }
    return script
  }
}
