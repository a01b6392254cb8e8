import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decodes commit text that git stores as raw bytes: never drops a message, never traps.
enum MessageDecoder {
  /// Decodes a NUL-terminated C string. A declared legacy encoding wins; otherwise valid UTF-8 is read as
  /// such, and anything else as Latin-1, which maps every byte to a character.
  static func decode(bytesOf cString: UnsafePointer<CChar>, encoding: String?) -> String {
    let bytes = UnsafeRawBufferPointer(start: cString, count: strlen(cString))
    return decode(Array(bytes), encoding: encoding)
  }

  static func decode(_ bytes: [UInt8], encoding: String?) -> String {
    if let declared = encoding.flatMap(converterName(for:)), let text = convert(bytes, from: declared) {
      return text
    }
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    return latin1(bytes)
  }

  /// Each byte as the character of that number: ISO-8859-1, which every byte sequence is.
  static func latin1(_ bytes: [UInt8]) -> String {
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
    return String(scalars)
  }

  /// The C library's name of a legacy encoding a commit may declare, among those known here: a commit's header is
  /// anyone's text, and the rest of the C library's converters are not offered to it.
  private static func converterName(for name: String) -> String? {
    switch name.lowercased().replacingEvery("_", with: "-") {
    case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1": "ISO-8859-1"
    case "iso-8859-2", "iso8859-2", "latin2": "ISO-8859-2"
    case "windows-1252", "cp1252": "CP1252"
    case "windows-1250", "cp1250": "CP1250"
    case "windows-1251", "cp1251": "CP1251"
    case "shift-jis", "sjis": "SHIFT_JIS"
    case "euc-jp": "EUC-JP"
    default: nil
    }
  }

  /// `bytes` in `encoding` as text, through the C library's converter (as git's own log converts them); nil when
  /// they are not text in that encoding or there is no such converter.
  private static func convert(_ bytes: [UInt8], from encoding: String) -> String? {
    if encoding == "ISO-8859-1" { return latin1(bytes) }
    let converter = iconv_open("UTF-8", encoding)
    guard converter != iconv_t(bitPattern: -1) else { return nil }
    defer { iconv_close(converter) }
    var input = bytes
    // No character of these encodings takes more than three bytes of UTF-8 for each of its bytes.
    var output = [UInt8](repeating: 0, count: bytes.count * 3 + 4)
    let written = input.withUnsafeMutableBufferPointer { inputBuffer -> Int? in
      output.withUnsafeMutableBufferPointer { outputBuffer -> Int? in
        var inputPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inputBuffer.baseAddress)?
          .assumingMemoryBound(to: CChar.self)
        var inputLeft = inputBuffer.count
        var outputPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outputBuffer.baseAddress!)
          .assumingMemoryBound(to: CChar.self)
        var outputLeft = outputBuffer.count
        guard iconv(converter, &inputPointer, &inputLeft, &outputPointer, &outputLeft) != -1, inputLeft == 0,
          iconv(converter, nil, nil, &outputPointer, &outputLeft) != -1
        else { return nil }
        return outputBuffer.count - outputLeft
      }
    }
    return written.flatMap { String(validating: output[..<$0], as: UTF8.self) }
  }
}
