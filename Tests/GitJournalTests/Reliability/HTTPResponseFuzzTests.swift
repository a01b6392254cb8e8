import Foundation
import Testing

@testable import Narrative

extension Reliability {
  /// The HTTP response parser against what a broken or hostile server can send: seeded random responses with
  /// adversarial status lines, Content-Length values and chunk sizes (negative, `7fffffffffffffff`, past
  /// `UInt64`, signs, hex prefixes, disagreeing duplicates), cut at random points. Nothing traps; every outcome is
  /// a response within the limits or an `HTTPClient.Failure`; and every well-formed response, whole, gives back
  /// exactly the body and status it was built from, so a parser that refused everything would fail too.
  @Suite struct HTTPResponseFuzzTests {
    static let hostileNumbers = [
      "-1", "-0", "+5", " 5 ", "0x10", "1e3", "", " ", "9223372036854775807", "-9223372036854775808",
      "9223372036854775808", "99999999999999999999999999", "18446744073709551616", "4194305", "4194304",
      "00000000000005",
      "5, 5", "5, 6", "5,", ",", "٣", "5\u{0}",
    ]
    static let hostileChunkSizes = [
      "-1", "-0", "+a", "0x10", "7fffffffffffffff", "ffffffffffffffff", "10000000000000000", "8000000000000000",
      "400001", "400000", "", " ", "g", "1;ext=1", "1 ; x", "٣", "00000000000000000001", "a\u{0}",
    ]
    static let statusLines = [
      "HTTP/1.1 200 OK", "HTTP/1.1 503 Service Unavailable", "HTTP/1.0 404", "HTTP/1.1 -1 No", "HTTP/1.1 2000 OK",
      "HTTP/1.1 99999999999999999999 OK", "HTTP/1.1 +20 OK", "HTTP/1.1", "", "ICY 200 OK", "HTTP/1.1 0200 OK",
      "HTTP/1.1 099 Low", "HTTP/1.1 600 High",
    ]

    static func pick<T>(_ values: [T], _ random: inout SeededGenerator) -> T {
      values[Int.random(in: 0..<values.count, using: &random)]
    }

    static func randomBytes(_ count: Int, _ random: inout SeededGenerator) -> [UInt8] {
      (0..<count).map { _ in
        // Mostly the bytes that matter to framing.
        Int.random(in: 0..<3, using: &random) == 0
          ? UInt8.random(in: 0...255, using: &random) : pick(Array("\r\n0123456789abcdef-;: ".utf8), &random)
      }
    }

    /// A well-formed response and what it must parse to; `framed` when its length is known before the end of the
    /// connection (Content-Length or chunked).
    static func wellFormed(_ random: inout SeededGenerator) -> (
      raw: [UInt8], status: Int, body: [UInt8], framed: Bool
    ) {
      let status = pick([200, 201, 404, 500, 503], &random)
      let body = Array(
        String(repeating: "{\"response\":\"ok\"}", count: Int.random(in: 0...40, using: &random)).utf8)
      var head = "HTTP/1.1 \(status) Whatever\r\nContent-Type: application/json\r\n"
      var raw: [UInt8]
      let framing = Int.random(in: 0..<3, using: &random)
      switch framing {
      case 0:
        head += "Content-Length: \(body.count)\r\n\r\n"
        raw = Array(head.utf8) + body
      case 1:
        head += "Transfer-Encoding: chunked\r\n\r\n"
        raw = Array(head.utf8)
        var rest = body[...]
        while !rest.isEmpty {
          let size = Int.random(in: 1...max(1, rest.count), using: &random)
          let hex = String(size, radix: 16, uppercase: Bool.random(using: &random))
          raw += Array("\(hex)\(Bool.random(using: &random) ? ";x=y" : "")\r\n".utf8) + rest.prefix(size) + [13, 10]
          rest = rest.dropFirst(size)
        }
        raw += Array("0\r\n\r\n".utf8)
      default:
        head += "\r\n"
        raw = Array(head.utf8) + body
      }
      return (raw, status, body, framing < 2)
    }

    /// A response with at least one hostile part.
    static func hostile(_ random: inout SeededGenerator) -> [UInt8] {
      var head = pick(statusLines, &random) + "\r\n"
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: head += "Content-Length: \(pick(hostileNumbers, &random))\r\n"
        case 1: head += "Content-Length: \(Int.random(in: 0...200, using: &random))\r\n"
        case 2:
          head +=
            "Transfer-Encoding: \(pick(["chunked", "gzip, chunked", "chunked, gzip", "CHUNKED", ""], &random))\r\n"
        case 3:
          head += String(decoding: randomBytes(Int.random(in: 0...30, using: &random), &random), as: UTF8.self) + "\r\n"
        default: head += "X-Filler: \(String(repeating: "x", count: Int.random(in: 0...100, using: &random)))\r\n"
        }
      }
      var raw = Array((head + "\r\n").utf8)
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: raw += Array("\(pick(hostileChunkSizes, &random))\r\n".utf8)
        case 1:
          let size = Int.random(in: 0...20, using: &random)
          raw += Array("\(String(size, radix: 16))\r\n".utf8) + randomBytes(size, &random) + [13, 10]
        case 2: raw += randomBytes(Int.random(in: 0...40, using: &random), &random)
        default: raw += Array("0\r\n\r\n".utf8)
        }
      }
      return raw
    }

    /// One parse: a response within the limits, or a Failure (the only error `parse` can throw).
    static func outcome(_ raw: [UInt8]) -> Result<HTTPClient.Response, HTTPClient.Failure> {
      _ = HTTPResponseParser.isComplete(raw)
      do {
        return .success(try HTTPResponseParser.parse(raw))
      } catch {
        return .failure(error)
      }
    }

    @Test func randomAndHostileResponsesParseOrFailCleanly() async {
      await DedicatedThread.run {
        var random = SeededGenerator(seed: 15)
        let cases = 6000
        var passed = 0
        var refused = 0
        for index in 0..<cases {
          var ok = true
          if index % 3 == 0 {
            let (raw, status, body, framed) = Self.wellFormed(&random)
            switch Self.outcome(raw) {
            case .success(let response):
              ok = response.status == status && Array(response.body) == body
              #expect(
                ok, "case \(index): \(response.status), \(response.body.count) bytes; expected \(status), \(body.count)"
              )
            case .failure(let failure):
              ok = false
              Issue.record("case \(index): a well-formed response failed: \(failure)")
            }
            #expect(!framed || HTTPResponseParser.isComplete(raw), "case \(index): a whole response is not complete")
            // Cut short, a framed response is an error (or whole, when only the chunked end's last CRLF is
            // missing); one framed by the connection's end gives part of its body. Nothing is ever invented.
            let cut = Array(raw.prefix(Int.random(in: 0..<raw.count, using: &random)))
            if case .success(let response) = Self.outcome(cut) {
              let fits = framed ? Array(response.body) == body : body.starts(with: response.body)
              #expect(fits, "case \(index): a response cut at \(cut.count) of \(raw.count) bytes parsed")
            }
          } else {
            var raw = Self.hostile(&random)
            if Bool.random(using: &random) { raw = Array(raw.prefix(Int.random(in: 0...raw.count, using: &random))) }
            switch Self.outcome(raw) {
            case .success(let response):
              ok = (100...599).contains(response.status) && response.body.count <= HTTPClient.maximumResponseBytes
              #expect(ok, "case \(index): \(response.status), \(response.body.count) bytes")
            case .failure:
              refused += 1
            }
          }
          if ok { passed += 1 }
        }
        #expect(refused > cases / 4, "only \(refused) hostile responses were refused: the generator is too tame")
        ReliabilityTable.record("hostile: HTTP responses (seeded fuzz)", tried: cases, passed: passed, dataLost: 0)
      }
    }

    /// The values of issue 15, one by one: each is a clean failure, at once (the reader stops waiting for more).
    @Test(arguments: [
      ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n{}", "Content-Length"),
      ("HTTP/1.1 200 OK\r\nContent-Length: -9223372036854775808\r\n\r\n{}", "Content-Length"),
      ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n{}", "larger than"),
      ("HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n\r\n{}", "larger than"),
      ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "disagree"),
      ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n{}\r\n0\r\n\r\n", "chunk size"),
      ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n{}\r\n0\r\n\r\n", "larger than"),
      ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n{}\r\n0\r\n\r\n", "larger than"),
      ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\n{}\r\n", "larger than"),
      ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n+2\r\n{}\r\n0\r\n\r\n", "chunk size"),
      ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n", "longer than its size"),
      ("HTTP/1.1 -200 OK\r\n\r\n{}", "status line"),
      ("HTTP/1.1 99999999999999999999 OK\r\n\r\n{}", "status line"),
    ])
    func issueFifteenFramingsFailCleanly(response: String, reason: String) {
      let raw = Array(response.utf8)
      #expect(HTTPResponseParser.isComplete(raw), "the reader would wait for more of a broken response")
      switch Self.outcome(raw) {
      case .success(let parsed): Issue.record("parsed as \(parsed.status) with \(parsed.body.count) bytes")
      case .failure(let failure): #expect(failure.description.contains(reason), "\(failure)")
      }
    }
  }
}
