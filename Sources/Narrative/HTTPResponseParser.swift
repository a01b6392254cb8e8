import Facts
import GitReader
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Parses an HTTP/1.1 response held in memory: status line, headers, and a body framed by Content-Length,
/// chunked transfer encoding, or the end of the connection.
///
/// Every number in it comes from the network, so each is checked before use: a status is three digits, a
/// Content-Length or chunk size is digits only and no larger than `HTTPClient.maximumResponseBytes` (which also
/// keeps every index computed from them far from overflowing). A response that breaks these rules is an error,
/// never a crash, and is reported as soon as it is seen rather than when the deadline passes.
enum HTTPResponseParser {
  private static let headerEnd: [UInt8] = Array("\r\n\r\n".utf8)
  /// Headers longer than this are refused: a model server sends a few hundred bytes of them.
  static let maximumHeaderBytes = 64 * 1024
  /// A chunk-size line longer than this is refused (16 hex digits and a short extension fit easily).
  static let maximumChunkLineBytes = 1024

  /// Where a response stands after some bytes of it.
  enum State {
    /// More bytes are needed to know.
    case incomplete
    /// Whole by its own framing.
    case complete(HTTPClient.Response)
    /// Broken: reading more would not help.
    case invalid(HTTPClient.Failure)
  }

  /// The response once the server has closed the connection: `raw` is all there is.
  static func parse(_ raw: [UInt8]) throws(HTTPClient.Failure) -> HTTPClient.Response {
    switch state(of: raw, closed: true) {
    case .complete(let response): return response
    case .invalid(let failure): throw failure
    case .incomplete: throw .malformedResponse("incomplete response")
    }
  }

  /// True once `raw` holds a whole response by its own framing, or one so broken that reading on is useless
  /// (`parse` then says why).
  static func isComplete(_ raw: [UInt8]) -> Bool {
    if case .incomplete = state(of: raw, closed: false) { return false }
    return true
  }

  static func state(of raw: [UInt8], closed: Bool) -> State {
    guard let split = headerBoundary(raw) else {
      if raw.count > maximumHeaderBytes {
        return .invalid(.malformedResponse("headers longer than \(maximumHeaderBytes / 1024) KiB"))
      }
      guard closed else { return .incomplete }
      return .invalid(
        .malformedResponse(raw.isEmpty ? "the server closed the connection without answering" : "incomplete headers"))
    }
    let head = String(decoding: raw[..<split], as: UTF8.self)
    let lines = head.pieces(separatedBy: "\r\n")
    let statusLine = lines.first ?? ""
    guard let status = Self.status(statusLine) else {
      return .invalid(.malformedResponse("status line '\(statusLine.prefix(80))'"))
    }
    let headers = Self.headers(lines.dropFirst())
    let body = raw[(split + headerEnd.count)...]

    if let encoding = headers["transfer-encoding"]?.last, Self.isChunked(encoding) {
      switch dechunk(body) {
      case .complete(let bytes): return .complete(HTTPClient.Response(status: status, body: Data(bytes)))
      case .invalid(let failure): return .invalid(failure)
      case .incomplete: return closed ? .invalid(.malformedResponse("truncated chunked body")) : .incomplete
      }
    }
    if let values = headers["content-length"] {
      let length: Int
      switch contentLength(values) {
      case .success(let value): length = value
      case .failure(let failure): return .invalid(failure)
      }
      if body.count >= length {
        return .complete(HTTPClient.Response(status: status, body: Data(body.prefix(length))))
      }
      return closed ? .invalid(.malformedResponse("body shorter than its Content-Length")) : .incomplete
    }
    return closed ? .complete(HTTPClient.Response(status: status, body: Data(body))) : .incomplete
  }

  /// `HTTP/1.1 200 OK` -> 200. The code is exactly three digits, 100 to 599.
  private static func status(_ line: String) -> Int? {
    let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].utf8.count == 3,
      parts[1].utf8.allSatisfy({ (48...57).contains($0) }), let code = Int(parts[1]), (100...599).contains(code)
    else { return nil }
    return code
  }

  /// The last transfer coding decides the framing; `chunked` must be it.
  private static func isChunked(_ value: String) -> Bool {
    value.split(separator: ",").last?.trimmingSpaces().lowercased() == "chunked"
  }

  /// One length from every Content-Length value (several lines, or a comma list, must all agree), digits only and
  /// within the size limit.
  private static func contentLength(_ values: [String]) -> Result<Int, HTTPClient.Failure> {
    var length: Int?
    for value in values {
      for item in value.split(separator: ",", omittingEmptySubsequences: false) {
        let text = String(item.trimmingSpaces())
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else {
          return .failure(.malformedResponse("Content-Length '\(value.prefix(40))'"))
        }
        // More digits than the limit has cannot be within it (and would overflow Int).
        guard text.utf8.count <= 12, let number = Int(text) else {
          return .failure(.responseTooLarge(limit: HTTPClient.maximumResponseBytes))
        }
        if let length, length != number {
          return .failure(.malformedResponse("Content-Length values that disagree"))
        }
        length = number
      }
    }
    guard let length else { return .failure(.malformedResponse("an empty Content-Length")) }
    guard length <= HTTPClient.maximumResponseBytes else {
      return .failure(.responseTooLarge(limit: HTTPClient.maximumResponseBytes))
    }
    return .success(length)
  }

  private static func headerBoundary(_ raw: [UInt8]) -> Int? {
    guard raw.count >= headerEnd.count else { return nil }
    for index in 0...(raw.count - headerEnd.count) where raw[index] == 13 {
      if raw[index..<(index + 4)].elementsEqual(headerEnd) { return index }
    }
    return nil
  }

  /// Header values by lower-case name, every line of a repeated header kept in order.
  private static func headers<S: Sequence<String>>(_ lines: S) -> [String: [String]] {
    var headers: [String: [String]] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].trimmingSpaces().lowercased()
      headers[name, default: []].append(String(line[line.index(after: colon)...].trimmingSpaces()))
    }
    return headers
  }

  private enum Chunks {
    case incomplete
    case complete([UInt8])
    case invalid(HTTPClient.Failure)
  }

  /// The body of a chunked encoding. Sizes are hex digits only, and the body they add up to stays within the
  /// size limit, so `index + size` cannot overflow.
  private static func dechunk(_ bytes: ArraySlice<UInt8>) -> Chunks {
    var output: [UInt8] = []
    var index = bytes.startIndex
    while true {
      guard let lineEnd = findCRLF(bytes, from: index) else {
        return bytes.endIndex - index > maximumChunkLineBytes
          ? .invalid(.malformedResponse("a chunk size line longer than \(maximumChunkLineBytes) bytes")) : .incomplete
      }
      guard lineEnd - index <= maximumChunkLineBytes else {
        return .invalid(.malformedResponse("a chunk size line longer than \(maximumChunkLineBytes) bytes"))
      }
      let line = String(decoding: bytes[index..<lineEnd], as: UTF8.self)
      let sizeText = (line.split(separator: ";", omittingEmptySubsequences: false).first ?? "")
        .trimming { $0 == " " || $0 == "\t" }
      guard !sizeText.isEmpty, sizeText.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit }) else {
        return .invalid(.malformedResponse("chunk size '\(sizeText.prefix(40))'"))
      }
      // UInt64 holds 16 hex digits; more, or a size past what is left of the limit, is too large.
      guard sizeText.count <= 16, let size = UInt64(sizeText, radix: 16), let count = Int(exactly: size),
        count <= HTTPClient.maximumResponseBytes - output.count
      else {
        return .invalid(.responseTooLarge(limit: HTTPClient.maximumResponseBytes))
      }
      index = lineEnd + 2
      if count == 0 { return .complete(output) }
      guard bytes.endIndex - index >= count + 2 else { return .incomplete }
      output += bytes[index..<(index + count)]
      index += count
      guard bytes[index] == 13 && bytes[index + 1] == 10 else {
        return .invalid(.malformedResponse("a chunk longer than its size"))
      }
      index += 2
    }
  }

  private static func findCRLF(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
    var index = start
    while index + 1 < bytes.endIndex {
      if bytes[index] == 13 && bytes[index + 1] == 10 { return index }
      index += 1
    }
    return nil
  }
}
