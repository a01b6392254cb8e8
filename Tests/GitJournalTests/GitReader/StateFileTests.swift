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

  /// The one-pass reading of a record's numbers (what the hook checks each stamped path with) agrees with reading
  /// them one field at a time, for numbers, near-numbers and records of the wrong length; and a line of many
  /// fields (past the reader's first tab buffer) comes back whole.
  @Test func numbersReadInOnePassAgreeWithEachField() throws {
    var random = SeededGenerator(seed: 0x4e55_4d53)
    let pieces = [
      "0", "7", "42", "-", "-3", "1796169769", "999999999999999999", "9999999999999999999", "+1", "4 2", "", "x",
    ]
    var records: [[String]] = []
    for _ in 0..<400 {
      records.append((0..<Int.random(in: 1...9, using: &random)).map { _ in pieces.randomElement(using: &random)! })
    }
    records.append((0..<100).map(String.init))
    let path = scratch.path("one-pass.tsv")
    try StateFile.write(records, to: path)
    var checked = 0
    StateFile.read(path) { record in
      for first in 0..<record.count {
        for wanted in [record.count - first, record.count - first + 1, max(1, record.count - first - 1)] {
          let single = (first..<record.count).map { record.integer($0) }
          let together = [Int64](unsafeUninitializedCapacity: wanted) { buffer, count in
            count = record.integers(from: first, into: buffer) ? wanted : 0
          }
          let expected = wanted == single.count && single.allSatisfy { $0 != nil } ? single.map { $0! } : []
          #expect(together == expected, "fields \(first)... of \((0..<record.count).map { record.text($0) })")
          checked += 1
        }
      }
      #expect((0..<record.count).allSatisfy { record.field($0, equals: record.text($0)) })
      #expect(
        !record.field(0, equals: record.text(0) + "x") && !record.field(0, equals: String(record.text(0).dropLast()))
          || record.text(0).isEmpty)
      return true
    }
    #expect(checked > 1000)
    #expect(Self.read(path) == records)
  }

  /// A field is compared with its escapes undone.
  @Test func escapedFieldsCompareUnescaped() throws {
    let path = scratch.path("escaped.tsv")
    try StateFile.write([["a\tb\\c", "plain"]], to: path)
    StateFile.read(path) { record in
      #expect(record.isEscaped(0) && !record.isEscaped(1))
      #expect(record.field(0, equals: "a\tb\\c") && !record.field(0, equals: "a\\tb\\\\c"))
      #expect(record.field(1, equals: "plain") && record.field(1, is: "plain") && !record.field(1, is: "plai"))
      return true
    }
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

  /// gitjournal's own files are opened without a look first: a symlink in a file's place is not followed (its
  /// target is read by no one), a folder is no file, and a regular file still reads.
  @Test func onlyARegularFileOfItsOwnIsRead() throws {
    let real = scratch.path("real.tsv")
    try StateFile.write([["a", "b"]], to: real)
    #expect(Self.read(real) == [["a", "b"]])
    let link = scratch.path("link.tsv")
    #expect(symlink(real, link) == 0)
    #expect(Self.read(link).isEmpty)
    try FileManager.default.createDirectory(atPath: scratch.path("folder.tsv"), withIntermediateDirectories: true)
    #expect(Self.read(scratch.path("folder.tsv")).isEmpty)
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
