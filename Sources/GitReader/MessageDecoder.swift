import Foundation
import Support

/// Decodes commit text that git stores as raw bytes: never drops a message, never traps.
enum MessageDecoder {
  /// Decodes a NUL-terminated C string. A declared legacy encoding wins; otherwise valid UTF-8 is read as
  /// such, and anything else as Latin-1, which maps every byte to a character.
  static func decode(bytesOf cString: UnsafePointer<CChar>, encoding: String?) -> String {
    let bytes = UnsafeRawBufferPointer(start: cString, count: strlen(cString))
    return decode(Array(bytes), encoding: encoding)
  }

  static func decode(_ bytes: [UInt8], encoding: String?) -> String {
    if let declared = encoding.flatMap(foundationEncoding(named:)),
      let text = String(bytes: bytes, encoding: declared)
    {
      return text
    }
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    return String(bytes: bytes, encoding: .isoLatin1) ?? String(decoding: bytes, as: UTF8.self)
  }

  private static func foundationEncoding(named name: String) -> String.Encoding? {
    switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
    case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1": return .isoLatin1
    case "iso-8859-2", "iso8859-2", "latin2": return .isoLatin2
    case "windows-1252", "cp1252": return .windowsCP1252
    case "windows-1250", "cp1250": return .windowsCP1250
    case "windows-1251", "cp1251": return .windowsCP1251
    case "shift-jis", "shift_jis", "sjis": return .shiftJIS
    case "euc-jp": return .japaneseEUC
    default: return nil
    }
  }
}
