/// Whitespace trimming in plain Swift. Foundation's `trimmingCharacters(in:)` bridges through NSString, which
/// costs more than the rest of the hook's text handling together; these give the same results for the
/// character sets they name.
extension StringProtocol {
  /// Without leading and trailing spaces (Unicode's space separators), tabs and carriage returns: a line split
  /// off at its line feed, whether it was written with "\n" or "\r\n".
  package func trimmingLineSpaces() -> Substring {
    trimming {
      $0.isASCII ? ($0 == " " || $0 == "\t" || $0 == "\r") : $0.properties.generalCategory == .spaceSeparator
    }
  }

  /// Without leading and trailing whitespace and line breaks (Foundation's `.whitespacesAndNewlines`).
  package func trimmingWhitespace() -> Substring {
    trimming { $0.isASCII ? ($0 == " " || ("\t"..."\r").contains($0)) : $0.properties.isWhitespace }
  }

  private func trimming(_ isTrimmed: (Unicode.Scalar) -> Bool) -> Substring {
    let scalars = Substring(self).unicodeScalars
    guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
    let last = scalars.lastIndex(where: { !isTrimmed($0) })!
    return Substring(scalars[first...last])
  }
}
