import Testing

@testable import Journal

/// The text of a file's stamp in a page's inputs is its fields in decimal, joined by commas: what the stamps files
/// written before hold, so that a new build finds them as they were.
@Suite struct PageStampTextTests {
  @Test func aStampIsItsFieldsInDecimal() {
    var generator = SeededGenerator(seed: 49)
    var samples: [[Int64]] = [
      [0, 0, 0, 0, 0, 0, 0], [Int64.max, Int64.min, -1, 1, 9, 10, -10],
      [2049, 131_075, 1039, 1_764_500_000, 999_999_999, 1_764_500_001, 5],
    ]
    for _ in 0..<200 {
      samples.append(
        (0..<7).map { _ in
          let digits = Int64.random(in: 0...18, using: &generator)
          var power: Int64 = 1
          for _ in 0..<digits { power *= 10 }
          return Int64.random(in: -power...power, using: &generator)
        })
    }
    for fields in samples {
      let expected = fields.map(String.init).joined(separator: ",")
      #expect(PageStamps.text(of: PageStamps.Stamp(fields: fields)) == expected)
    }
    #expect(PageStamps.text(of: nil) == "none")
  }
}
