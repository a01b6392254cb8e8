import CLibgit2
import Foundation
import Testing

@testable import GitReader

/// The counts `LineChanges` gives, without diffing or from reduced texts, are the ones git gives.
@Suite struct LineChangesTests {
  /// Random pairs of texts made of a few repeated lines (so that texts share starts, ends and lines often), each
  /// a random edit of the other: wherever the shortcut answers, xdiff (through libgit2) answers the same.
  @Test func shortcutAgreesWithXdiff() throws {
    var random = SeededGenerator(seed: 0x6C69_6E65)
    let pieces = ["a\n", "b\n", "c\n", "\n", "}\n", "  return\n", "a", "b"]
    func line() -> String { pieces[Int.random(in: 0..<6, using: &random)] }
    func lines(_ count: Int) -> [String] { (0..<count).map { _ in line() } }

    var pairs: [(old: String, new: String)] = []
    while pairs.count < 3000 {
      var old = lines(Int.random(in: 0...10, using: &random))
      if Bool.random(using: &random) { old.append(pieces[Int.random(in: 6..<8, using: &random)]) }
      var new = old.last?.hasSuffix("\n") == false ? Array(old.dropLast()) + [String(old.last!) + "\n"] : old
      if new == old || Int.random(in: 0..<3, using: &random) > 0 {
        new = old.filter { $0.hasSuffix("\n") }
        let position = Int.random(in: 0...new.count, using: &random)
        switch Int.random(in: 0..<5, using: &random) {
        case 0: new.insert(contentsOf: lines(Int.random(in: 1...3, using: &random)), at: position)
        case 1: new.removeSubrange(position..<min(new.count, position + Int.random(in: 1...3, using: &random)))
        case 2: if position < new.count { new[position] = line() }
        case 3: new += lines(Int.random(in: 1...2, using: &random))
        default: new = lines(Int.random(in: 0...6, using: &random))
        }
        if Bool.random(using: &random) { new.append(pieces[Int.random(in: 6..<8, using: &random)]) }
      }
      let pair = (old: old.joined(), new: new.joined())
      if pair.old != pair.new { pairs.append(pair) }
    }

    let repository = try TemporaryRepository()
    let ids = try Self.writeBlobs(pairs.flatMap { [$0.old, $0.new] }, in: repository)
    let git = try Repository.open(at: repository.path + "/.git")
    var answered = 0
    for (index, pair) in pairs.enumerated() {
      let old = try git.blob(ids[2 * index])
      let new = try git.blob(ids[2 * index + 1])
      let ends = LineChanges.SharedEnds(old.bytes, new.bytes)
      guard let known = LineChanges.withoutDiffing(from: old.bytes, to: new.bytes, ends: ends) else { continue }
      answered += 1
      let diffed = try LineChanges.xdiff(old.bytes, new.bytes)
      #expect(known == diffed, "\(pair.old.debugDescription) -> \(pair.new.debugDescription)")
    }
    // Most pairs are single edits, which the shortcut answers; the rest go to xdiff.
    #expect(answered > 1500 && answered < pairs.count, "\(answered) of \(pairs.count)")
  }

  /// Long files with a few edits, their lines drawn from a small set so that many occur near xdiff's limit on
  /// repeated lines, and middle lines that also occur among the shared ones: the counts from the reduced texts
  /// (`ReducedTexts`) are git's own (`git diff-tree --numstat`), and those of xdiff on the whole texts, both
  /// called directly and through libgit2's public API.
  @Test func reducedTextsCountAsGitDoes() throws {
    var random = SeededGenerator(seed: 0x7265_6475)
    let common = ["\n", "}\n", "\t}\n", "\treturn nil\n", "// MARK\n", "{\n", "\t\tbreak\n", "x\n"]
    var unique = 0
    func line() -> String {
      if Int.random(in: 0..<10, using: &random) < 6 { return common[Int.random(in: 0..<common.count, using: &random)] }
      unique += 1
      return "line \(unique % 97) of \(unique % 13)\n"
    }

    var pairs: [(old: String, new: String)] = []
    while pairs.count < 400 {
      // Around 16, 64, 256 and 1,024 lines, where xdiff's limit on repeated lines changes.
      let size = [14, 18, 60, 70, 250, 262, 1_000, 1_030, 3_000][Int.random(in: 0..<9, using: &random)]
      var old = (0..<size).map { _ in line() }
      var new = old
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        let position = Int.random(in: (new.count / 4)...(3 * new.count / 4), using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: new.insert(contentsOf: (0..<Int.random(in: 1...4, using: &random)).map { _ in line() }, at: position)
        case 1: new.removeSubrange(position..<min(new.count, position + Int.random(in: 1...3, using: &random)))
        case 2: new[position] = line()
        default: new.insert(old[Int.random(in: 0..<old.count, using: &random)], at: position)
        }
      }
      if Bool.random(using: &random) {
        old[old.count - 1].removeLast()
        if Bool.random(using: &random) { new[new.count - 1].removeLast() }
      }
      let pair = (old: old.joined(), new: new.joined())
      if pair.old != pair.new { pairs.append(pair) }
    }

    let repository = try TemporaryRepository()
    let expected = try Self.gitCounts(of: pairs, in: repository)
    var reduced = 0
    for (index, pair) in pairs.enumerated() {
      let (old, new) = (Array(pair.old.utf8), Array(pair.new.utf8))
      try old.withUnsafeBytes { old throws in
        try new.withUnsafeBytes { new throws in
          let ends = LineChanges.SharedEnds(old, new)
          if LineChanges.withoutDiffing(from: old, to: new, ends: ends) == nil
            && ReducedTexts(old, new, ends: ends) != nil
          {
            reduced += 1
          }
          let counted = try LineChanges.counted(from: old, to: new)
          #expect(counted == expected[index], "pair \(index): reduced")
          #expect(try LineChanges.xdiff(old, new) == expected[index], "pair \(index): whole")
          #expect(Self.publicCounts(old, new) == expected[index], "pair \(index): libgit2's API")
        }
      }
    }
    #expect(reduced > 250, "\(reduced) of \(pairs.count) pairs reduced")
  }

  /// Two texts of 300,000 lines, past the count from which xdiff's limit on repeated lines stops growing, drawn
  /// from a few lines; and two texts whose middles hold every filler line `ReducedTexts` could use, with bytes
  /// that are no UTF-8, which are then diffed whole. Both count as git counts them.
  @Test func longAndUnusualTextsCountAsGitDoes() throws {
    var random = SeededGenerator(seed: 0x6C6F_6E67)
    let lines = ["a\n", "bb\n", "\n", "}\n", "\treturn\n"].map { Array($0.utf8) }
    var old = (0..<300_000).map { _ in lines[Int.random(in: 0..<lines.count, using: &random)] }
    var new = old
    for position in stride(from: 100_000, to: 200_000, by: 7_919) {
      new[position] = Array("changed \(position)\n".utf8)
      new.insert(lines[position % lines.count], at: position + 3)
    }
    let long = (old.flatMap { $0 }, new.flatMap { $0 })

    old = (0..<200).map { Array("line \($0)\n".utf8) }
    new = old
    let fillers = (UInt8(0x21)...UInt8(0xFF)).map { [$0, 10] }
    old.insert(contentsOf: fillers, at: 100)
    new.insert(contentsOf: fillers.reversed(), at: 100)
    let unusual = (old.flatMap { $0 }, new.flatMap { $0 })
    try unusual.0.withUnsafeBytes { old throws in
      try unusual.1.withUnsafeBytes { new throws in
        #expect(ReducedTexts(old, new, ends: LineChanges.SharedEnds(old, new)) == nil)
        _ = try LineChanges.counted(from: old, to: new)
      }
    }

    let repository = try TemporaryRepository()
    let expected = try Self.gitCounts(of: [long, unusual], in: repository)
    for (index, pair) in [long, unusual].enumerated() {
      try pair.0.withUnsafeBytes { old throws in
        try pair.1.withUnsafeBytes { new throws in
          #expect(try LineChanges.counted(from: old, to: new) == expected[index], "pair \(index)")
          #expect(try LineChanges.xdiff(old, new) == expected[index], "pair \(index): whole")
        }
      }
    }
  }

  /// A text's lines can drop to the lowest count whose approximate square root (`xdl_bogosqrt`, capped at 1,024
  /// as xdiff caps it) is the same, and no further.
  @Test func droppableLinesKeepXdiffsLimit() {
    func limit(_ lines: Int) -> Int {
      var root = 1
      var rest = lines
      while rest > 0 {
        root <<= 1
        rest >>= 2
      }
      return min(root, 1024)
    }
    for lines in Array(0...5_000) + [65_535, 65_536, 262_143, 262_144, 262_145, 1_048_576, 5_000_000] {
      let lowest = lines - ReducedTexts.droppableLines(of: lines)
      #expect(lowest >= 0 && limit(lowest) == limit(lines), "\(lines)")
      if lowest > 0 { #expect(limit(lowest - 1) != limit(lines), "\(lines)") }
    }
  }

  /// Each pair's (insertions, deletions) as `git diff-tree --numstat` gives them, from one commit holding every
  /// old text and one holding every new one.
  private static func gitCounts(of pairs: [(old: String, new: String)], in repository: TemporaryRepository) throws
    -> [(insertions: Int, deletions: Int)]
  {
    try gitCounts(of: pairs.map { (Array($0.old.utf8), Array($0.new.utf8)) }, in: repository)
  }

  private static func gitCounts(of pairs: [([UInt8], [UInt8])], in repository: TemporaryRepository) throws
    -> [(insertions: Int, deletions: Int)]
  {
    var script = Data()
    for mark in [1, 2] {
      script.append(Data("commit refs/heads/side\(mark)\nmark :\(mark)\n".utf8))
      script.append(Data("committer A <a@example.com> 1700000000 +0000\ndata 0\n".utf8))
      for (index, pair) in pairs.enumerated() {
        let text = mark == 1 ? pair.0 : pair.1
        script.append(Data("M 100644 inline f\(index)\ndata \(text.count)\n".utf8))
        script.append(Data(text))
        script.append(Data("\n".utf8))
      }
    }
    try repository.git(["fast-import", "--quiet"], input: script)
    var counts = [(insertions: Int, deletions: Int)?](repeating: nil, count: pairs.count)
    let numstat = try repository.git("diff-tree", "-r", "--numstat", "side1", "side2")
    for line in numstat.split(separator: "\n") {
      let fields = line.split(separator: "\t")
      counts[try #require(Int(fields[2].dropFirst()))] = (try #require(Int(fields[0])), try #require(Int(fields[1])))
    }
    return try counts.map { try #require($0) }
  }

  /// (-1, -1) when libgit2 fails.
  private static func publicCounts(_ old: UnsafeRawBufferPointer, _ new: UnsafeRawBufferPointer) -> (Int, Int) {
    var insertions = 0
    var deletions = 0
    let result = gitjournal_count_line_changes_public(
      old.baseAddress?.assumingMemoryBound(to: CChar.self), old.count,
      new.baseAddress?.assumingMemoryBound(to: CChar.self), new.count, &insertions, &deletions)
    return result == 0 ? (insertions, deletions) : (-1, -1)
  }

  @Test(arguments: [("", 0), ("a", 1), ("a\n", 1), ("a\nb", 2), ("a\n\n", 2), ("\n", 1)])
  func lineCountCountsAnUnterminatedLastLine(text: String, lines: Int) {
    let count = Array(text.utf8).withUnsafeBytes { LineChanges.lineCount(of: $0) }
    #expect(count == lines)
  }

  /// All texts as blobs in one `git fast-import`, their ids in order.
  private static func writeBlobs(_ texts: [String], in repository: TemporaryRepository) throws -> [ObjectID] {
    var script = Data()
    for (index, text) in texts.enumerated() {
      script.append(Data("blob\nmark :\(index + 1)\ndata \(text.utf8.count)\n".utf8))
      script.append(Data(text.utf8))
      script.append(Data("\n".utf8))
    }
    let marks = repository.owner.path("marks")
    try repository.git(["fast-import", "--quiet", "--export-marks=\(marks)"], input: script)
    var ids = [ObjectID?](repeating: nil, count: texts.count)
    for line in try String(contentsOfFile: marks, encoding: .utf8).split(separator: "\n") {
      let fields = line.split(separator: " ")
      ids[Int(fields[0].dropFirst())! - 1] = ObjectID(hex: String(fields[1]))
    }
    return try ids.map { try #require($0) }
  }
}
