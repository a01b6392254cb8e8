import Foundation
import Testing

@testable import CLI
@testable import Facts

/// `gitjournal mcp` driven over pipes as an assistant drives it: the handshake, each tool against `show --json`,
/// the resources, the JSON-RPC errors, and a private project that leaves nothing in any answer.
@Suite struct McpServerTests {
  /// The tools' structured content, a result's `structuredContent`.
  static func structured(_ answer: JSONValue?) -> JSONValue? { answer?["result"]?["structuredContent"] }

  static func text(_ answer: JSONValue?) -> String? {
    guard case .array(let content)? = answer?["result"]?["content"] else { return nil }
    return content.first?["text"]?.string
  }

  static func errorCode(_ answer: JSONValue?) -> Int? {
    if case .integer(let code)? = answer?["error"]?["code"] { return code }
    return nil
  }

  static func errorParameter(_ answer: JSONValue?) -> String? { answer?["error"]?["data"]?["parameter"]?.string }

  @Test func handshakeAgreesOnTheVersion() throws {
    let fixture = try McpFixture()
    for (asked, agreed) in [
      ("2025-06-18", "2025-06-18"), ("2025-03-26", "2025-03-26"), ("2024-11-05", "2024-11-05"),
      ("2099-01-01", "2025-06-18"),
    ] {
      let session = try McpSession(fixture.sandbox)
      let ping = try session.request("ping")
      try session.initialize(version: asked)
      let tools = try session.request("tools/list")
      let status = session.finish()
      #expect(status == 0)
      #expect(session.answer(to: ping)?["result"] == .object([:]), "ping is answered before initialize")
      let result = session.answer(to: 2)?["result"]
      #expect(result?["protocolVersion"] == .string(agreed), "\(asked)")
      #expect(result?["serverInfo"]?["name"] == .string("gitjournal"))
      #expect(result?["capabilities"]?["tools"] != nil && result?["capabilities"]?["resources"] != nil)
      guard case .array(let list)? = session.answer(to: tools)?["result"]?["tools"] else {
        Issue.record("no tools for \(asked): \(session.outputText)")
        continue
      }
      #expect(list.compactMap { $0["name"]?.string } == JournalTools.names)
      // outputSchema and structuredContent came with 2025-06-18.
      #expect(list.allSatisfy { ($0["outputSchema"] != nil) == (agreed == "2025-06-18") }, "\(asked)")
      #expect(list.allSatisfy { $0["inputSchema"]?["type"] == .string("object") })
    }
  }

  @Test func eachToolGivesWhatShowJSONGives() throws {
    let fixture = try McpFixture()
    let session = try McpSession(fixture.sandbox)
    try session.initialize()
    let day = try session.request("tools/call", ["name": "journal_day", "arguments": ["date": "2026-03-10"]])
    let range = try session.request(
      "tools/call", ["name": "journal_range", "arguments": ["since": "2026-03-09", "until": "2026-03-10"]])
    let week = try session.request("tools/call", ["name": "journal_week", "arguments": ["date": "2026-03-10"]])
    let search = try session.request(
      "tools/call",
      ["name": "search_commits", "arguments": ["text": "THE", "since": "2026-03-01", "until": "2026-03-10"]])
    let status = session.finish()
    #expect(status == 0)

    let showDay = try fixture.showJSON("2026-03-10")
    let showRange = try fixture.showJSON("--since", "2026-03-09", "--until", "2026-03-10")
    let showWeek = try fixture.showJSON("--week", "2026-03-10")
    #expect(Self.structured(session.answer(to: day)) == McpFixture.redacted(day: showDay))
    #expect(Self.structured(session.answer(to: range)) == McpFixture.redacted(range: showRange))
    #expect(Self.structured(session.answer(to: week)) == McpFixture.redacted(range: showWeek))
    // The public project is whole: its commits, branch and path as show gives them.
    let app = Self.structured(session.answer(to: day))?["projects"].flatMap { projects -> JSONValue? in
      guard case .array(let list) = projects else { return nil }
      return list.first { $0["name"] == .string("app") }
    }
    let appCommits = app?["commits"]
    #expect(app?["path"]?.string?.hasSuffix("/repos/app") == true)
    if case .array(let commits)? = appCommits {
      #expect(commits.count == 2)
      #expect(commits.contains { $0["branch"] == .string("feature/export") })
    } else {
      Issue.record("no commits for app: \(session.outputText)")
    }
    let dayText = Self.text(session.answer(to: day)) ?? ""
    #expect(dayText.contains("## app") && dayText.contains("Fix the sync crash"), "\(dayText)")
    #expect(dayText.contains("## vault\n\n- 2 commits, a private project"), "\(dayText)")
    #expect(Self.text(session.answer(to: week))?.hasPrefix("# Week 2026-W11") == true)

    // Search: every public commit whose subject holds "the", any case, newest first, each as show gives it.
    let found = Self.structured(session.answer(to: search))
    let showCommits = showRange["days"].flatMap { days -> [JSONValue]? in
      guard case .array(let list) = days else { return nil }
      return list.flatMap { day -> [JSONValue] in
        guard case .array(let projects)? = day["projects"] else { return [] }
        return projects.filter { $0["name"] == .string("app") }.flatMap { project -> [JSONValue] in
          guard case .array(let commits)? = project["commits"] else { return [] }
          return commits.filter { $0["subject"]?.string?.lowercased().contains("the") == true }.map { commit in
            var members = commit.object ?? [:]
            members["date"] = day["date"]
            members["project"] = .string("app")
            return .object(members)
          }
        }
      }.reversed()
    }
    #expect(found?["commits"] == showCommits.map { JSONValue.array($0) })
    #expect(found?["matchCount"] == .integer(2))
    #expect(found?["truncated"] == .bool(false))
  }

  @Test func standupGivesTheLastDayWithCommitsAndToday() throws {
    let sandbox = try JournalSandbox()
    let repository = try sandbox.makeRepository("app")
    let calendar = Calendar(identifier: .gregorian)
    let now = Date()
    var utc = calendar
    utc.timeZone = TimeZone(identifier: "UTC")!
    let today = utc.startOfDay(for: now)
    let earlier = today.addingTimeInterval(-3 * 86_400 + 9 * 3600)
    let formatter = ISO8601DateFormatter()
    try repository.commit(
      file: "a.txt", content: "a\n", message: "Write the parser", date: formatter.string(from: earlier))
    try repository.commit(
      file: "b.txt", content: "b\n", message: "Test the parser", date: formatter.string(from: today))
    try sandbox.register(repository)
    let session = try McpSession(sandbox)
    try session.initialize()
    let standup = try session.request("tools/call", ["name": "standup", "arguments": ["days": 7]])
    let short = try session.request("tools/call", ["name": "standup", "arguments": ["days": 1]])
    let status = session.finish()
    #expect(status == 0)
    let day = String(formatter.string(from: earlier).prefix(10))
    let previous = try JSONDecoder().decode(
      JSONValue.self, from: try sandbox.runBinary("show", day, "--json").standardOutput.data(using: .utf8)!)
    let current = try JSONDecoder().decode(
      JSONValue.self, from: try sandbox.runBinary("show", "today", "--json").standardOutput.data(using: .utf8)!)
    let result = Self.structured(session.answer(to: standup))
    #expect(result?["previous"] == previous)
    #expect(result?["today"] == current)
    let text = Self.text(session.answer(to: standup)) ?? ""
    #expect(text.contains("- **app**\n  - Write the parser") && text.contains("## Today so far"), "\(text)")
    // One day back holds no commit: no previous day, today still there.
    #expect(Self.structured(session.answer(to: short))?["previous"] == .null)
  }

  @Test func aPrivateProjectLeavesNothingInAnyAnswer() throws {
    let fixture = try McpFixture()
    let session = try McpSession(fixture.sandbox)
    try session.initialize()
    try session.request("tools/list")
    for (name, arguments) in [
      ("journal_day", ["date": "2026-03-10"]), ("journal_range", ["since": "2026-03-09", "until": "2026-03-10"]),
      ("journal_week", ["date": "2026-03-10"]), ("standup", [:]),
      ("search_commits", ["text": McpFixture.privateSubjects[0], "since": "2026-03-01", "until": "2026-03-10"]),
      ("search_commits", ["text": "the", "since": "2026-03-01", "until": "2026-03-10"]),
      ("journal_day", ["date": McpFixture.privateSubjects[1]]),
      ("search_commits", ["text": "acme", "since": McpFixture.privateBranch]),
    ] as [(String, [String: String])] {
      try session.request("tools/call", ["name": name, "arguments": arguments])
    }
    let list = try session.request("resources/list")
    for uri in ["gitjournal://day/2026-03-10", "gitjournal://week/2026-W11", "gitjournal://month/2026-03"] {
      try session.request("resources/read", ["uri": uri])
    }
    try session.request("resources/read", ["uri": "gitjournal://day/" + McpFixture.privateBranch])
    let status = session.finish()
    #expect(status == 0)
    let output = session.outputText
    for secret in fixture.secrets {
      #expect(!output.contains(secret), "an answer holds \(secret)")
    }
    // The private project is there, by name and counts.
    #expect(output.contains("- 2 commits, a private project"))
    #expect(output.contains("\"name\":\"vault\""))
    guard case .array(let resources)? = session.answer(to: list)?["result"]?["resources"] else {
      Issue.record("no resources: \(output)")
      return
    }
    #expect(resources.count == 4)
    let dayPage = session.answers.first { $0["id"] == .integer(list + 1) }
    guard case .array(let contents)? = dayPage?["result"]?["contents"] else {
      Issue.record("no day page: \(output)")
      return
    }
    let page = contents.first?["text"]?.string ?? ""
    #expect(page.contains("## vault\n\n- 2 commits, a private project") && page.contains("Fix the sync crash"))
    // The note is the user's, kept, with the private subject and id taken out.
    #expect(page.contains("Talked about [private] with Ana ([private])."), "\(page)")
  }

  @Test func badInputGetsAJSONRPCError() throws {
    let fixture = try McpFixture()
    let session = try McpSession(fixture.sandbox)
    let early = try session.request("tools/list")
    try session.initialize()
    session.write("{not json\n")
    session.write("[{\"jsonrpc\":\"2.0\",\"id\":90,\"method\":\"ping\"}]\n")
    session.write("{\"id\":91,\"method\":\"ping\"}\n")
    session.notify("notifications/cancelled")
    session.write("{\"jsonrpc\":\"2.0\",\"method\":\"tools/list\"}\n")
    let unknown = try session.request("prompts/list")
    let cases: [(params: [String: Any], parameter: String)] = [
      (["name": "journal_day", "arguments": ["date": "2026-02-30"]], "date"),
      (["name": "journal_day", "arguments": ["date": "-99999999999"]], "date"),
      (["name": "journal_day", "arguments": ["date": 20_260_310]], "date"),
      (["name": "journal_day", "arguments": ["day": "today"]], "day"),
      (["name": "journal_range", "arguments": ["since": "2026-03-10", "until": "2026-03-01"]], "since"),
      (["name": "journal_range", "arguments": ["since": "2000-01-01", "until": "2026-03-01"]], "since"),
      (["name": "journal_range", "arguments": [:] as [String: Any]], "since"),
      (["name": "standup", "arguments": ["days": 0]], "days"),
      (["name": "search_commits", "arguments": ["text": ""]], "text"),
      (["name": "journal_year", "arguments": [:] as [String: Any]], "name"),
      (["arguments": [:] as [String: Any]], "name"),
      (["name": "journal_day", "arguments": ["2026-03-10"]], "arguments"),
    ]
    let ids = try cases.map { try session.request("tools/call", $0.params) }
    let cursor = try session.request("resources/list", ["cursor": "bogus"])
    let uri = try session.request("resources/read", ["uri": "https://example.com/2026-03-10"])
    let missing = try session.request("resources/read", ["uri": "gitjournal://day/2001-01-01"])
    let twice = try session.request("initialize", ["protocolVersion": "2025-06-18"])
    let last = try session.request("ping")
    let status = session.finish()
    #expect(status == 0)

    #expect(Self.errorCode(session.answer(to: early)) == -32600)
    let message = session.answer(to: early)?["error"]?["message"]?.string ?? ""
    #expect(message.contains("initialize"))
    let anonymous = session.answers.filter { $0["id"] == .null }
    #expect(anonymous.compactMap(Self.errorCode) == [-32700, -32600])
    #expect(Self.errorCode(session.answer(to: 91)) == -32600)
    #expect(Self.errorCode(session.answer(to: unknown)) == -32601)
    for (id, item) in zip(ids, cases) {
      let answer = session.answer(to: id)
      #expect(Self.errorCode(answer) == -32602, "\(item.params): \(String(describing: answer))")
      #expect(Self.errorParameter(answer) == item.parameter, "\(item.params)")
      let text = answer?["error"]?["message"]?.string ?? ""
      #expect(text.contains("'\(item.parameter)'"), "\(text)")
    }
    #expect(Self.errorParameter(session.answer(to: cursor)) == "cursor")
    #expect(Self.errorParameter(session.answer(to: uri)) == "uri")
    #expect(Self.errorCode(session.answer(to: missing)) == -32002)
    #expect(Self.errorCode(session.answer(to: twice)) == -32600)
    #expect(session.answer(to: last)?["result"] == .object([:]))
    // Notifications get no answer: one answer per request and per message that could not be read.
    #expect(session.answers.count == 2 + 2 + 1 + 1 + cases.count + 5)
  }

  @Test func aTenMegabyteLineGetsAnErrorWithoutBeingHeld() throws {
    let fixture = try McpFixture()
    let session = try McpSession(fixture.sandbox)
    try session.initialize()
    let before = try session.request("ping")
    _ = session.answer(to: before)
    let baseline = session.peakMemoryKilobytes
    var line = Data("{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"ping\",\"params\":{\"x\":\"".utf8)
    line.append(Data(repeating: UInt8(ascii: "a"), count: 10 << 20))
    line.append(Data("\"}}\n".utf8))
    session.write(bytes: line)
    let after = try session.request("ping")
    let answer = session.answer(to: after)
    let peak = session.peakMemoryKilobytes
    let status = session.finish()
    #expect(status == 0)
    #expect(answer?["result"] == .object([:]), "the server reads on after the long line")
    let refused = session.answers.first { $0["id"] == .null }
    #expect(Self.errorCode(refused) == -32600)
    #expect(session.answer(to: 77) == nil)
    // Held whole, the line would add at least its 10 MB; read in bounded pieces, a few.
    if let baseline, let peak { #expect(peak - baseline < 4 << 10, "peak \(peak) kB after \(baseline) kB") }
  }

  @Test func stdinClosedInTheMiddleOfAMessage() throws {
    let fixture = try McpFixture()
    let session = try McpSession(fixture.sandbox)
    try session.initialize()
    let ping = try session.request("ping")
    session.write("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/ca")
    let status = session.finish()
    #expect(status == 0)
    #expect(session.answer(to: ping)?["result"] == .object([:]))
    let last = session.answers.last
    #expect(Self.errorCode(last) == -32700)
    #expect(last?["error"]?["message"]?.string?.contains("ended in the middle") == true)
  }

  @Test func resourcesAreListedPageByPageAndRead() throws {
    let fixture = try McpFixture()
    // A long journal: 150 more day files, some of them for days without records.
    var day = Day(year: 2025, month: 1, day: 1)
    for _ in 0..<150 {
      try "# A day\n".write(
        toFile: fixture.sandbox.journalDirectory + "/\(day).md", atomically: true, encoding: .utf8)
      day = day.adding(days: 1)
    }
    try "not a page".write(toFile: fixture.sandbox.journalDirectory + "/notes.md", atomically: true, encoding: .utf8)
    let session = try McpSession(fixture.sandbox)
    try session.initialize()
    var uris: [String] = []
    var cursor: String?
    var pages = 0
    repeat {
      let id = try session.request("resources/list", cursor.map { ["cursor": $0] })
      let result = session.answer(to: id)?["result"]
      guard case .array(let resources)? = result?["resources"] else {
        Issue.record("no resources: \(session.outputText)")
        break
      }
      #expect(resources.count <= JournalResources.pageSize)
      #expect(resources.allSatisfy { $0["mimeType"] == .string("text/markdown") })
      uris += resources.compactMap { $0["uri"]?.string }
      cursor = result?["nextCursor"]?.string
      pages += 1
    } while cursor != nil && pages < 10
    #expect(pages == 2)
    #expect(uris.count == 154)
    #expect(Set(uris).count == uris.count)
    #expect(uris.first == "gitjournal://day/2026-03-10")
    #expect(uris.suffix(2) == ["gitjournal://week/2026-W11", "gitjournal://month/2026-03"])
    let read = try session.request("resources/read", ["uri": "gitjournal://month/2026-03"])
    let status = session.finish()
    #expect(status == 0)
    guard case .array(let contents)? = session.answer(to: read)?["result"]?["contents"] else {
      Issue.record("no month page: \(session.outputText)")
      return
    }
    let month = try String(contentsOfFile: fixture.sandbox.journalDirectory + "/2026-03.md", encoding: .utf8)
    #expect(contents.first?["text"]?.string == month)
    #expect(contents.first?["uri"] == .string("gitjournal://month/2026-03"))
  }

  /// A page that is a symlink (to any file of the machine, here one of secrets) is not read for the assistant: the
  /// read is an error naming the page, and nothing of the target reaches the answer.
  @Test func aSymlinkedPageIsNotRead() throws {
    let fixture = try McpFixture()
    let secret = fixture.sandbox.scratch.path("secret.txt")
    try "the secret key\n".write(toFile: secret, atomically: false, encoding: .utf8)
    let page = fixture.sandbox.journalDirectory + "/2026-03-09.md"
    try? FileManager.default.removeItem(atPath: page)
    try FileManager.default.createSymbolicLink(atPath: page, withDestinationPath: secret)
    let session = try McpSession(fixture.sandbox)
    try session.initialize()
    let read = try session.request("resources/read", ["uri": "gitjournal://day/2026-03-09"])
    #expect(session.finish() == 0)
    #expect(!session.outputText.contains("the secret key"))
    let message = session.answer(to: read)?["error"]?["message"]?.string ?? ""
    #expect(message.contains("2026-03-09") && message.contains("symlink"), "\(session.outputText)")
  }

  @Test func itWritesNothing() throws {
    let fixture = try McpFixture()
    func snapshot() throws -> [String: Data] {
      var files: [String: Data] = [:]
      let root = fixture.sandbox.journalDirectory
      for name in FileManager.default.subpaths(atPath: root) ?? [] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isFolder), !isFolder.boolValue
        else { continue }
        files[name] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + name))
      }
      return files
    }
    let before = try snapshot()
    // A commit since the files were written: a writer would refresh the day's file and record.
    let app = try fixture.sandbox.makeRepository("late")
    try app.commit(file: "x.txt", content: "x\n", message: "Late work", date: "2026-03-10T20:00:00Z")
    try fixture.sandbox.register(app)
    let session = try McpSession(fixture.sandbox)
    try session.initialize()
    for name in JournalTools.names {
      let arguments: [String: Any] = name == "search_commits" ? ["text": "work"] : [:]
      try session.request("tools/call", ["name": name, "arguments": arguments])
    }
    let day = try session.request("tools/call", ["name": "journal_day", "arguments": ["date": "2026-03-10"]])
    let status = session.finish()
    #expect(status == 0)
    #expect(Self.text(session.answer(to: day))?.contains("Late work") == true)
    let after = try snapshot()
    #expect(after == before)
  }
}
