import Foundation
import Testing

@testable import GitReader
@testable import Support

/// gitjournal's own state files share one codec: what is written is read back, whatever the text; a write
/// cut short loses its last record only; a file that is not a regular file is never opened for reading.
@Suite struct StateFileTests {
  let scratch: ScratchDirectory

  init() throws { scratch = try ScratchDirectory("gitjournal-state") }

  static func read(_ path: String) -> [[String]] {
    var records: [[String]] = []
    StateFile.read(path) { record in
      records.append((0..<record.count).map { record.text($0) })
      return true
    }
    return records
  }

  /// Random fields made of the characters that need escaping, spaces, backslash sequences that look like
  /// escapes, and text that is not ASCII.
  @Test func anyTextComesBackAsWritten() throws {
    var random = SeededGenerator(seed: 0x5354_4154)
    let pieces = ["\\", "\t", "\n", "\r", "\r\n", "\\n", "\\\\t", " ", "a", "Zoë", "日本", "🙂", ""]
    var records: [[String]] = []
    for _ in 0..<300 {
      records.append(
        (0..<Int.random(in: 1...6, using: &random)).map { _ in
          (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        })
    }
    let path = scratch.path("state/records.tsv")
    try StateFile.write(records, to: path)
    #expect(Self.read(path) == records)
    try StateFile.append([["more", "\t"]], to: path)
    #expect(Self.read(path) == records + [["more", "\t"]])
  }

  @Test func aLineWithoutItsLineFeedIsNoRecord() throws {
    let path = scratch.path("cut.tsv")
    try scratch.write("a\tb\nc\td", to: "cut.tsv")
    #expect(Self.read(path) == [["a", "b"]])
  }

  @Test func numbersAndIdsAreReadExactly() throws {
    let id = ObjectID.repeating("e")
    let path = scratch.path("numbers.tsv")
    try StateFile.write(
      [
        [id.hex, "0", "-42", "999999999999999999"],
        [String(id.hex.dropLast()), "1000000000000000000", "4 2", "+1", "", "-"],
      ], to: path)
    var fields: [[String]] = []
    StateFile.read(path) { record in
      fields.append(
        [record.objectID(0)?.hex ?? "nil"] + (1..<record.count).map { record.integer($0).map(String.init) ?? "nil" })
      return true
    }
    #expect(fields == [[id.hex, "0", "-42", "999999999999999999"], ["nil", "nil", "nil", "nil", "nil", "nil"]])
  }

  /// A FIFO where a cache file should be would block a plain read until some writer came: the hook would hang.
  @Test func aFIFOIsNotRead() throws {
    let path = scratch.path("fifo.tsv")
    #expect(mkfifo(path, 0o644) == 0)
    #expect(Self.read(path).isEmpty)
    #expect(TipTimes(folder: scratch.path).time(of: .repeating("a")) == nil)
    try #require(mkfifo(scratch.path("tips.tsv"), 0o644) == 0)
    #expect(TipTimes(folder: scratch.path).time(of: .repeating("a")) == nil)
  }

  /// The reader reads straight into its array: empty, small and large files come back byte for byte.
  @Test func filesOfAnySizeAreReadWhole() throws {
    var random = SeededGenerator(seed: 7)
    for size in [0, 1, 4095, 65_536, 300_001] {
      let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
      try scratch.write(bytes: bytes, to: "whole-\(size)")
      #expect(try AtomicFile.readContents(scratch.path("whole-\(size)"))?.bytes == bytes, "\(size) bytes")
    }
    #expect(try AtomicFile.readContents(scratch.path("absent")) == nil)
  }
}
