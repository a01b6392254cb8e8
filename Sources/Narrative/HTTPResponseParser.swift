import Facts
import Foundation
import GitReader
import Support

/// Parses an HTTP/1.1 response held in memory: status line, headers, and a body framed by Content-Length,
/// chunked transfer encoding, or the end of the connection.
enum HTTPResponseParser {
  private static let headerEnd: [UInt8] = Array("\r\n\r\n".utf8)

  static func parse(_ raw: [UInt8]) throws(HTTPClient.Failure) -> HTTPClient.Response {
    guard let split = headerBoundary(raw) else {
      throw .malformedResponse(
        raw.isEmpty ? "the server closed the connection without answering" : "incomplete headers")
    }
    let head = String(decoding: raw[..<split], as: UTF8.self)
    let lines = head.components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ", maxSplits: 2)
    guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/"), let status = Int(statusParts[1]) else {
      throw .malformedResponse("status line '\(lines[0].prefix(80))'")
    }
    let headers = Self.headers(lines.dropFirst())
    let bodyBytes = Array(raw[(split + headerEnd.count)...])
    if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
      guard let decoded = dechunk(bodyBytes) else { throw .malformedResponse("truncated chunked body") }
      return HTTPClient.Response(status: status, body: Data(decoded))
    }
    if let lengthText = headers["content-length"], let length = Int(lengthText) {
      guard bodyBytes.count >= length else { throw .malformedResponse("body shorter than its Content-Length") }
      return HTTPClient.Response(status: status, body: Data(bodyBytes.prefix(length)))
    }
    return HTTPClient.Response(status: status, body: Data(bodyBytes))
  }

  /// True once `raw` holds a whole response by its own framing (before the server closes).
  static func isComplete(_ raw: [UInt8]) -> Bool {
    guard let split = headerBoundary(raw) else { return false }
    let head = String(decoding: raw[..<split], as: UTF8.self)
    let headers = Self.headers(head.components(separatedBy: "\r\n").dropFirst())
    let body = Array(raw[(split + headerEnd.count)...])
    if headers["transfer-encoding"]?.lowercased().contains("chunked") == true { return dechunk(body) != nil }
    if let lengthText = headers["content-length"], let length = Int(lengthText) { return body.count >= length }
    return false
  }

  private static func headerBoundary(_ raw: [UInt8]) -> Int? {
    guard raw.count >= headerEnd.count else { return nil }
    for index in 0...(raw.count - headerEnd.count) where raw[index] == 13 {
      if raw[index..<(index + 4)].elementsEqual(headerEnd) { return index }
    }
    return nil
  }

  private static func headers<S: Sequence<String>>(_ lines: S) -> [String: String] {
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return headers
  }

  /// The body of a chunked encoding, or nil while it is incomplete.
  private static func dechunk(_ bytes: [UInt8]) -> [UInt8]? {
    var output: [UInt8] = []
    var index = 0
    while true {
      guard let lineEnd = findCRLF(bytes, from: index) else { return nil }
      let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
      guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
      index = lineEnd + 2
      if size == 0 { return output }
      guard bytes.count >= index + size + 2 else { return nil }
      output += bytes[index..<(index + size)]
      index += size + 2
    }
  }

  private static func findCRLF(_ bytes: [UInt8], from start: Int) -> Int? {
    var index = start
    while index + 1 < bytes.count {
      if bytes[index] == 13 && bytes[index + 1] == 10 { return index }
      index += 1
    }
    return nil
  }
}
