import Foundation
import Testing

@testable import CLI
@testable import Facts
@testable import GitReader
@testable import Journal
@testable import Narrative
@testable import Support

/// The counts `LineChanges` gives without diffing are the ones git's xdiff gives by diffing.
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
      guard let known = LineChanges.withoutDiffing(from: old.content, to: new.content) else { continue }
      answered += 1
      let diffed = try old.lineChanges(to: new)
      #expect(known == diffed, "\(pair.old.debugDescription) -> \(pair.new.debugDescription)")
    }
    // Most pairs are single edits, which the shortcut answers; the rest go to xdiff.
    #expect(answered > 1500 && answered < pairs.count, "\(answered) of \(pairs.count)")
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
