import CLibgit2
import Foundation
import Support

/// Reads the small cache files gitjournal keeps: lines of a 40-digit hex object id followed by
/// space-separated decimal numbers. Parsed byte by byte, because the hook reads them on every commit; a
/// malformed line (a write cut short) is skipped.
enum RecordFile {
  /// Calls `body` with the id and numbers of every well-formed line that has `fields` numbers.
  static func forEachRecord(in path: String, fields: Int, _ body: (ObjectID, [Int64]) -> Void) {
    guard let data = FileManager.default.contents(atPath: path) else { return }
    data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
      let bytes = buffer.bindMemory(to: UInt8.self)
      var numbers: [Int64] = []
      numbers.reserveCapacity(fields)
      var lineStart = 0
      while lineStart < bytes.count {
        var lineEnd = lineStart
        while lineEnd < bytes.count && bytes[lineEnd] != 10 { lineEnd += 1 }
        defer { lineStart = lineEnd + 1 }
        // Only lines ended by a newline count: the last one may be a write cut short.
        guard lineEnd < bytes.count, lineEnd - lineStart > 41, bytes[lineStart + 40] == 32 else { continue }
        var oid = git_oid()
        let parsed = git_oid_fromstrn(
          &oid, UnsafeRawPointer(bytes.baseAddress! + lineStart).assumingMemoryBound(to: CChar.self), 40)
        guard parsed == 0 else { continue }
        numbers.removeAll(keepingCapacity: true)
        var index = lineStart + 41
        var valid = true
        while index < lineEnd && valid {
          var value: Int64 = 0
          var digits = 0
          var negative = false
          if bytes[index] == 45 {
            negative = true
            index += 1
          }
          while index < lineEnd && bytes[index] >= 48 && bytes[index] <= 57 && digits < 18 {
            value = value * 10 + Int64(bytes[index] - 48)
            index += 1
            digits += 1
          }
          if digits == 0 || (index < lineEnd && bytes[index] != 32) { valid = false }
          numbers.append(negative ? -value : value)
          index += 1
        }
        if valid && numbers.count == fields { body(ObjectID(oid), numbers) }
      }
    }
  }
}
