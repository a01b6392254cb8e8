/// Whitespace trimming in plain Swift, without Foundation (whose `trimmingCharacters(in:)` also bridged through
/// NSString, which cost more than the rest of the hook's text handling together); these give the results of
/// Foundation's character sets they name.
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

  /// Without leading and trailing spaces and tabs (Foundation's `.whitespaces`: Unicode's space separators and the
  /// tab).
  package func trimmingSpaces() -> Substring {
    trimming { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
  }

  /// Without the leading and trailing scalars `isTrimmed` holds for.
  package func trimming(_ isTrimmed: (Unicode.Scalar) -> Bool) -> Substring {
    let scalars = Substring(self).unicodeScalars
    guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
    let last = scalars.lastIndex(where: { !isTrimmed($0) })!
    return Substring(scalars[first...last])
  }
}
