/// Searching and replacing text by its UTF-8 bytes: a piece of text is found where its bytes are, as a file holds
/// them. The standard library's string searches go through its regex engine and build a search table for each call
/// (a hook makes a dozen; `bench/instructions.sh`), and Foundation's are not linked.
extension StringProtocol {
  /// Where `piece` occurs, from the start, without overlaps.
  package func occurrences(of piece: String) -> [Range<Index>] {
    let needle = Array(piece.utf8)
    var found: [Range<Index>] = []
    var position = startIndex
    while let range = occurrence(of: needle, from: position) {
      found.append(range)
      position = range.upperBound
    }
    return found
  }

  /// Whether `piece` occurs (an empty piece never does).
  package func contains(text piece: String) -> Bool { firstOccurrence(of: piece) != nil }

  /// Where `piece` first occurs, or nil.
  package func firstOccurrence(of piece: String) -> Range<Index>? {
    occurrence(of: Array(piece.utf8), from: startIndex)
  }

  /// Where the bytes `needle` first occur at or after `position`, or nil (always nil for no bytes).
  private func occurrence(of needle: [UInt8], from position: Index) -> Range<Index>? {
    guard let first = needle.first else { return nil }
    let text = utf8
    var position = position
    while let start = text[position...].firstIndex(of: first) {
      var end = start
      var matched = 0
      while matched < needle.count, end != text.endIndex, text[end] == needle[matched] {
        text.formIndex(after: &end)
        matched += 1
      }
      if matched == needle.count { return start..<end }
      position = text.index(after: start)
    }
    return nil
  }

  /// The text with every occurrence of `piece` replaced by `replacement`.
  package func replacingEvery(_ piece: String, with replacement: String) -> String {
    var result = ""
    var position = startIndex
    for range in occurrences(of: piece) {
      result += self[position..<range.lowerBound]
      result += replacement
      position = range.upperBound
    }
    result += self[position...]
    return result
  }

  /// The pieces of text between the occurrences of `separator`, empty ones included (Foundation's
  /// `components(separatedBy:)`).
  package func pieces(separatedBy separator: String) -> [String] {
    var pieces: [String] = []
    var position = startIndex
    for range in occurrences(of: separator) {
      pieces.append(String(self[position..<range.lowerBound]))
      position = range.upperBound
    }
    pieces.append(String(self[position...]))
    return pieces
  }
}
