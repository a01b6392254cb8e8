import Foundation
import Testing

@testable import Facts
@testable import GitReader

/// Commit messages are bytes: legacy encodings and invalid UTF-8 are decoded, never dropped, never a crash.
@Suite struct MessageEncodingTests {
  let sandbox: JournalSandbox
  let repository: TemporaryRepository

  init() throws {
    sandbox = try JournalSandbox()
    repository = try sandbox.makeRegisteredRepository("app")
  }

  /// Commits with the message in `bytes`, written to a file and passed with `-F`.
  func commit(messageBytes bytes: [UInt8], encoding: String?, date: String, file: String) throws -> String {
    try repository.write("\(file)\n", to: file)
    try repository.git("add", "-A")
    let messageFile = repository.owner.path("message-\(file)")
    try Data(bytes).write(to: URL(fileURLWithPath: messageFile))
    let config = encoding.map { ["-c", "i18n.commitEncoding=\($0)"] } ?? []
    try repository.git(
      config + ["commit", "-q", "-F", messageFile],
      environment: TemporaryRepository.identity(date: date, committerDate: nil, email: TemporaryRepository.email))
    return try repository.headID()
  }

  @Test func latin1MessageWithEncodingHeaderIsDecoded() async throws {
    // "Café: première tâche" in ISO-8859-1, then a body.
    var subject: [UInt8] = Array("Caf".utf8) + [0xE9]
    subject += Array(": premi".utf8) + [0xE8]
    subject += Array("re t".utf8) + [0xE2] + Array("che".utf8)
    let id = try commit(
      messageBytes: subject + Array("\n\nBody\n".utf8), encoding: "ISO-8859-1", date: "2026-03-10T09:00:00Z",
      file: "a")
    let header = try repository.git("cat-file", "commit", id)
    #expect(header.contains("\nencoding ISO-8859-1\n"), "git recorded the encoding")
    // git log re-encodes to UTF-8 for output: that is the expected subject.
    let expected = try #require(try repository.log().first { $0.id == id }).subject
    #expect(expected == "Café: première tâche")

    let report = try await sandbox.report("2026-03-10")
    #expect(report.allCommits.map(\.subject) == [expected])
    let rebuilt = await sandbox.run("rebuild", "2026-03-10")
    #expect(rebuilt.status == 0)
    #expect(try #require(sandbox.journalFile("2026-03-10")).contains("Café: première tâche"))
  }

  @Test func invalidUTF8WithoutHeaderIsKept() async throws {
    // Latin-1 bytes with no encoding header, a lone continuation byte and a truncated sequence.
    let subject: [UInt8] = Array("Na".utf8) + [0xEF] + Array("ve fix ".utf8) + [0x80, 0xC3] + Array(" done".utf8)
    let id = try commit(
      messageBytes: subject + [0x0A], encoding: nil, date: "2026-03-10T10:00:00Z", file: "b")
    let header = try repository.git("cat-file", "commit", id)
    #expect(!header.contains("\nencoding "), "no encoding header")

    let report = try await sandbox.report("2026-03-10")
    let commit = try #require(report.allCommits.first { $0.id.hex == id })
    // Every byte survives: read as Latin-1.
    // Latin-1 maps each byte to the code point of the same number (Foundation 6.0's decoder refuses 0x80 to 0x9F).
    let latin1 = String(String.UnicodeScalarView(subject.map { Unicode.Scalar($0) }))
    #expect(commit.subject == latin1)
    #expect(commit.subject.hasPrefix("Naïve fix ") && commit.subject.hasSuffix(" done"))

    let rebuilt = await sandbox.run("rebuild", "2026-03-10")
    #expect(rebuilt.status == 0, "\(rebuilt)")
    let file = try #require(sandbox.journalFile("2026-03-10"))
    #expect(file.contains("Naïve fix"))
  }

  @Test func subjectIsTheFirstParagraphJoinedLikeGit() async throws {
    let id = try commit(
      messageBytes: Array("\n\nFirst line\nsecond line\n\nBody text\n".utf8), encoding: nil,
      date: "2026-03-10T11:00:00Z", file: "c")
    let expected = try #require(try repository.log().first { $0.id == id }).subject
    #expect(expected == "First line second line")
    #expect(try await sandbox.report("2026-03-10").allCommits.map(\.subject) == [expected])
  }

  /// The subject is git's `%s`: only the first paragraph is decoded, so a body with bytes that are not UTF-8
  /// leaves a UTF-8 subject as it is; a blank line of spaces and tabs ends the paragraph; a message written with
  /// CRLF line endings gives the same subject as with LF. (`git commit` would rewrite a stray byte and the
  /// carriage returns, so each commit is written as a raw object.)
  @Test(arguments: [
    Array("Snowman ☃ arrives\n\nBody with a stray byte: ".utf8) + [0xFF] + Array(" end\n".utf8),
    Array("Title\n \t \nBody\n".utf8),
    Array("Windows line\r\nendings\r\n\r\nBody\r\n".utf8),
  ])
  func subjectComesFromTheFirstParagraphAlone(message: [UInt8]) async throws {
    _ = try commit(messageBytes: Array("Start\n".utf8), encoding: nil, date: "2026-03-10T10:00:00Z", file: "c")
    let tree = try repository.git("rev-parse", "HEAD^{tree}").trimmingCharacters(in: .whitespacesAndNewlines)
    let parent = try repository.headID()
    let signature =
      "\(TemporaryRepository.email.split(separator: "@")[0]) <\(TemporaryRepository.email)> 1773140400 +0000"
    let header = "tree \(tree)\nparent \(parent)\nauthor \(signature)\ncommitter \(signature)\n\n"
    let id = try repository.git(
      ["hash-object", "-t", "commit", "-w", "--literally", "--stdin"], input: Data(Array(header.utf8) + message)
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    try repository.git("update-ref", "HEAD", id)

    let expected = try #require(try repository.log().first { $0.id == id }).subject
    let subjects = try await sandbox.report("2026-03-10").allCommits.map(\.subject)
    #expect(subjects.contains(expected), "\(subjects)")
  }

  @Test func messagesInOtherDeclaredEncodings() async throws {
    // "日本語" in Shift-JIS and "Łódź" in ISO-8859-2.
    let japanese = try commit(
      messageBytes: [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x0A], encoding: "Shift_JIS", date: "2026-03-10T12:00:00Z",
      file: "d")
    let polish = try commit(
      messageBytes: [0xA3, 0xF3, 0x64, 0xBC, 0x0A], encoding: "ISO-8859-2", date: "2026-03-10T13:00:00Z", file: "e")
    let logged = try repository.log()
    let subjects = Dictionary(
      uniqueKeysWithValues: try await sandbox.report("2026-03-10").allCommits.map { ($0.id.hex, $0.subject) })
    #expect(subjects[japanese] == logged.first { $0.id == japanese }?.subject)
    #expect(subjects[japanese] == "日本語")
    #expect(subjects[polish] == logged.first { $0.id == polish }?.subject)
    #expect(subjects[polish] == "Łódź")
  }

  @Test func decoderNeverTraps() {
    var random = SeededGenerator(seed: 42)
    for _ in 0..<500 {
      let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 1...255, using: &random) }
      for encoding in [nil, "ISO-8859-1", "UTF-8", "Shift_JIS", "x-unknown"] {
        let text = MessageDecoder.decode(bytes, encoding: encoding)
        #expect(!text.isEmpty || bytes.isEmpty)
      }
    }
  }
}
