import Foundation
import Testing

@testable import Facts
@testable import Journal
@testable import Support

extension Reliability {
  /// Untrusted input from every side: commit messages, repository paths, config values, dates at both ends of
  /// the range, repositories that vanish or rot, a journal folder behind a symlink. Each commit still succeeds,
  /// each journal file keeps exactly one managed block, its front matter and the user's notes, and every commit
  /// that can be read is listed once.
  @Suite struct HostileInputTests {
    let world: HookWorld

    init() throws {
      world = try HookWorld()
    }

    static let notesAbove = "Notes above, by hand: <b>not html</b> & `mine`.\n\n"
    static let notesBelow = "\n---\nNotes below, after a rule of my own.\n"

    func installedRepository(_ relative: String) throws -> String {
      let repository = try world.makeRepository(relative)
      let installed = try world.gitjournal("install", in: repository)
      try #require(installed.status == 0, "\(installed.hookTestSummary)")
      return repository
    }

    /// Commits `message` byte for byte (`--cleanup=verbatim -F`) with the installed hook.
    func commit(message: [UInt8], in repository: String, environment: [String: String] = [:]) throws -> ProcessResult {
      let messageFile = world.scratch.path("message-\(UUID().uuidString)")
      try Data(message).write(to: URL(fileURLWithPath: messageFile))
      defer { try? FileManager.default.removeItem(atPath: messageFile) }
      try Data(UUID().uuidString.utf8).write(to: URL(fileURLWithPath: repository + "/\(UUID().uuidString).txt"))
      try world.git(["add", "-A"], in: repository)
      return try world.gitResult(
        ["commit", "-q", "--allow-empty-message", "--cleanup=verbatim", "-F", messageFile], in: repository,
        environment: environment)
    }

    func addNotes(to file: String) throws {
      let text = try String(contentsOfFile: file, encoding: .utf8)
      let begin: Range<String.Index> = try #require(text.range(of: JournalMerger.beginPrefix))
      try Data(
        (String(text[..<begin.lowerBound]) + Self.notesAbove + String(text[begin.lowerBound...]) + Self.notesBelow).utf8
      )
      .write(
        to: URL(fileURLWithPath: file))
    }

    /// What must hold of a journal file whatever went into it; the problems found, empty when none.
    static func problems(in data: Data, commitIDs: [String], notes: Bool = true) -> [String] {
      var found: [String] = []
      guard let text = String(data: data, encoding: .utf8) else { return ["the file is not valid UTF-8"] }
      guard let parts = JournalFixtures.parts(of: text) else {
        return ["not exactly one managed block after front matter"]
      }
      if JournalFixtures.frontMatterPairs(text).map(\.0) != JournalPage.frontMatterKeys {
        found.append("front matter keys \(JournalFixtures.frontMatterPairs(text).map(\.0))")
      }
      if !text.contains("\ncommits: \(commitIDs.count)\n") {
        found.append("front matter does not say \(commitIDs.count) commits")
      }
      if notes && !(parts.before.hasSuffix(notesAbove) && parts.after.hasSuffix(notesBelow)) {
        found.append("the user's notes moved or changed")
      }
      let items = JournalFixtures.lines(parts.body).filter { $0.hasPrefix("- ") }
      if items.count != commitIDs.count { found.append("\(items.count) commit lines for \(commitIDs.count) commits") }
      for id in commitIDs where HookWorld.count("`\(id.prefix(7))`", in: text) != 1 {
        found.append("commit \(id.prefix(7)) is not listed exactly once")
      }
      if parts.body.contains("<") { found.append("a raw '<' inside the block") }
      if parts.body.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) {
        found.append("a control character inside the block")
      }
      return found
    }

    static let hostileMessages: [(String, [UInt8])] = [
      ("end marker", Array("<!-- gitjournal:end checksum=000000000000 -->\n".utf8)),
      (
        "begin marker",
        Array("<!-- gitjournal:begin (generated from your commits; edits here move below the block) -->\n".utf8)
      ),
      ("front matter fence", Array("---\n".utf8)),
      ("front matter block", Array("---\ndate: 1999-01-01\ncommits: 999\n---\n\nbody\n".utf8)),
      ("html", Array("<script>alert('x')</script> <img src=x onerror=alert(1)> &amp; & <b>bold</b>\n".utf8)),
      ("comment opener", Array("<!-- unclosed comment\n".utf8)),
      ("code fence", Array("``` fence ` tick \\` escaped\n".utf8)),
      (
        "control characters",
        Array("\u{1B}[31mred\u{1B}[0m \u{7} bell \u{8} back \r carriage \u{7F} \u{85} \u{2028} \u{2029}\n".utf8)
      ),
      ("tab and carriage return line end", Array("tab\there\r\n\r\nbody\r\n".utf8)),
      ("invalid UTF-8", [0x43, 0x61, 0x66, 0xE9, 0x20, 0xFF, 0xFE, 0x20, 0xC3, 0x28, 0x20, 0xED, 0xA0, 0x80, 0x0A]),
      ("empty message", []),
      ("markdown heading", Array("## fake project\n\n- 09:00 fake commit (`0000000`, +1 -0)\n".utf8)),
      (
        "1 MB body",
        Array(
          ("A short subject before a 1 MB body\n\n" + String(repeating: "log line <x> & more\n", count: 55_000)).utf8)
      ),
    ]

    static func withoutGitsEncodingWarning(_ text: String) -> String {
      let warning = [
        "Warning: commit message did not conform to UTF-8.",
        "You may want to amend it after fixing the message, or set the config",
        "variable i18n.commitEncoding to the encoding your project uses.",
      ]
      return text.split(separator: "\n").filter { !warning.contains(String($0)) }.joined(separator: "\n")
    }

    @Test func hostileCommitMessages() throws {
      let repository = try installedRepository("code/app")
      let first = try world.commit(in: repository, "First commit, before the hostile ones")
      let file = world.journalDirectory + "/\(first.day).md"
      try addNotes(to: file)
      var ids = [first.id]
      var passed = 0
      var dataLost = 0
      for (name, message) in Self.hostileMessages {
        let result = try commit(message: message, in: repository)
        #expect(result.status == 0, "\(name): \(result.hookTestSummary)")
        // git itself warns about a message that is not UTF-8; the hook must add nothing.
        let printed =
          name == "invalid UTF-8" ? Self.withoutGitsEncodingWarning(result.standardError) : result.standardError
        #expect(printed.isEmpty, "\(name): \(result.standardError)")
        ids.append(try world.describe("HEAD", in: repository).id)
        let problems = Self.problems(in: FileManager.default.contents(atPath: file) ?? Data(), commitIDs: ids)
        #expect(problems.isEmpty, "after the \(name) commit: \(problems)")
        if problems.isEmpty && result.status == 0 && printed.isEmpty { passed += 1 }
        if !problems.isEmpty { dataLost += 1 }
      }
      let journal = try #require(world.journal(first.day))
      #expect(journal.contains("&lt;!-- gitjournal:end checksum=000000000000 --&gt;"))
      #expect(journal.contains("&lt;script&gt;alert('x')&lt;/script&gt;"))
      #expect(journal.contains("Caf\u{E9}") || journal.contains("Caf\u{FFFD}"), "the invalid UTF-8 subject is gone")
      #expect(journal.contains("A short subject before a 1 MB body ("))
      #expect(!journal.contains("log line"), "the body is not the subject")
      let show = try world.gitjournal("show", first.day, "--json", in: repository)
      #expect(show.status == 0, "\(show.hookTestSummary)")
      #expect((try? JSONDecoder().decode(DayReport.self, from: show.outputData))?.allCommits.count == ids.count)
      ReliabilityTable.record(
        "hostile: commit messages", tried: Self.hostileMessages.count, passed: passed, dataLost: dataLost)
    }

    /// A 1 MB first paragraph is a 1 MB subject: it is journaled on one line, whole, and the file stays valid.
    @Test func oneMegabyteSubject() throws {
      let repository = try installedRepository("code/app")
      let subject = String(repeating: "word <w> ", count: 120_000)
      let result = try commit(message: Array((subject + "\n").utf8), in: repository)
      #expect(result.status == 0 && result.standardError.isEmpty, "\(result.hookTestSummary)")
      let commit = try world.describe("HEAD", in: repository)
      let data = try #require(FileManager.default.contents(atPath: world.journalDirectory + "/\(commit.day).md"))
      let problems = Self.problems(in: data, commitIDs: [commit.id], notes: false)
      #expect(problems.isEmpty, "\(problems)")
      let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("- ") } ?? ""
      // Cut short in the file, at a word, with an ellipsis; `show --json` has it whole.
      #expect(line.count < 400 && line.contains("word &lt;w&gt;…"), "\(line.prefix(300))")
      let json = try world.gitjournal("show", commit.day, "--json", in: repository)
      let report = try JSONDecoder().decode(DayReport.self, from: Data(json.standardOutput.utf8))
      #expect(report.projects.first?.commits.first?.subject == subject.trimmingCharacters(in: .whitespaces))
      ReliabilityTable.record(
        "hostile: 1 MB subject", tried: 1, passed: problems.isEmpty ? 1 : 0, dataLost: problems.isEmpty ? 0 : 1)
    }

    /// Commit objects git itself would not write: a NUL in the message, an unknown encoding header, a raw
    /// escape sequence and a name with angle brackets. Read like `git log` reads them.
    @Test func craftedCommitObjects() throws {
      let repository = try installedRepository("code/app")
      let base = try world.commit(in: repository, "Base of the crafted commits")
      let tree = try world.git(["rev-parse", "HEAD^{tree}"], in: repository).trimmingCharacters(
        in: .whitespacesAndNewlines)
      let now = Int64(Date().timeIntervalSince1970)
      var parent = base.id
      var ids = [base.id]
      let messages: [[UInt8]] = [
        Array("Before a NUL".utf8) + [0] + Array(" after it\n".utf8),
        Array("encoded in nothing known \u{1B}]0;title\u{7}\n".utf8),
        [0xE9, 0x74, 0xE9, 0x20, 0x3C, 0x21, 0x2D, 0x2D, 0x0A],
      ]
      for (index, message) in messages.enumerated() {
        var object = Array("tree \(tree)\nparent \(parent)\n".utf8)
        object += Array(
          "author <Mallory> <\(HookWorld.email)> \(now) +0000\ncommitter M <m@example.com> \(now) +0000\n".utf8)
        if index == 1 { object += Array("encoding x-unknown-charset\n".utf8) }
        object += Array("\n".utf8) + message
        let path = world.scratch.path("object-\(index)")
        try Data(object).write(to: URL(fileURLWithPath: path))
        parent = try world.git(["hash-object", "-t", "commit", "-w", "--literally", path], in: repository)
          .trimmingCharacters(in: .whitespacesAndNewlines)
        ids.append(parent)
      }
      try world.git(["update-ref", "refs/heads/main", parent], in: repository)
      let rebuild = try world.gitjournal("rebuild", base.day, "--no-narrative", in: repository)
      #expect(rebuild.status == 0, "\(rebuild.hookTestSummary)")
      let data = try #require(FileManager.default.contents(atPath: world.journalDirectory + "/\(base.day).md"))
      let problems = Self.problems(in: data, commitIDs: ids, notes: false)
      #expect(problems.isEmpty, "\(problems)")
      #expect(String(decoding: data, as: UTF8.self).contains(" Before a NUL ("), "git's %s stops at the NUL")
      ReliabilityTable.record(
        "hostile: crafted commit objects", tried: messages.count, passed: problems.isEmpty ? messages.count : 0,
        dataLost: problems.isEmpty ? 0 : 1)
    }

    static let awkwardFolders = [
      "with space", #"quote's "double""#, "$(touch pwned-dollar)", "`touch pwned-tick`", "new\nline",
      "semi;colon & pipe | <angle>", "ünïcødé 日本", "-starts-with-dash", "trailing space ",
    ]

    @Test func awkwardRepositoryPaths() throws {
      var passed = 0
      var commits: [HookCommit] = []
      for (index, folder) in Self.awkwardFolders.enumerated() {
        let repository = try world.makeRepository("code/\(index)/" + folder)
        let installed = try world.gitjournal("install", in: repository)
        #expect(installed.status == 0, "\(folder.debugDescription): \(installed.hookTestSummary)")
        guard installed.status == 0 else { continue }
        let commit = try world.commit(in: repository, "Commit in folder \(index)")
        #expect(commit.standardError.isEmpty, "\(folder.debugDescription): \(commit.standardError)")
        commits.append(commit)
        let journal = world.journal(commit.day) ?? ""
        let once = HookWorld.count(commit.journalID, in: journal) == 1
        #expect(once, "\(folder.debugDescription): the commit is not in the journal once")
        if once && commit.standardError.isEmpty { passed += 1 }
      }
      // Every earlier commit is still there, and nothing ran out of a folder name.
      if let last = commits.last, let journal = world.journal(last.day) {
        for commit in commits where commit.day == last.day {
          #expect(HookWorld.count(commit.journalID, in: journal) == 1)
        }
      }
      let executed = world.scratch.allFiles().filter { ($0 as NSString).lastPathComponent.hasPrefix("pwned") }
      #expect(executed.isEmpty, "a folder name was executed: \(executed)")
      #expect(Set(world.journaledPaths()).count == Self.awkwardFolders.count, "\(world.journaledPaths())")
      ReliabilityTable.record(
        "hostile: repository paths", tried: Self.awkwardFolders.count, passed: executed.isEmpty ? passed : 0,
        dataLost: Self.awkwardFolders.count - passed)
    }

    static let wrongValues: [(key: String, value: String)] = [
      ("journal.merges", "maybe"), ("journal.dayStart", "25:00"), ("journal.timezone", "Mars/Olympus_Mons"),
      ("narrative.timeout", "soon"), ("narrative.temperature", "hot"), ("narrative.retryDelay", "-5"),
      ("narrative.allowRemote", "perhaps"), ("narrative.engine", "gpt-9"), ("narrative.url", "ftp://127.0.0.1/"),
      ("repo.app.private", "sometimes"), ("narrative.healthTimeout", "1e400"),
    ]

    @Test func configValuesOfTheWrongType() throws {
      let repository = try installedRepository("app")
      _ = try world.commit(in: repository, "Before the config went bad")
      var passed = 0
      for (key, value) in Self.wrongValues {
        try world.configure(key, value)
        defer { _ = try? world.unset(key) }
        let rebuild = try world.gitjournal("rebuild", "--no-narrative", in: repository)
        let named = rebuild.standardError.contains(key) && rebuild.standardError.contains("'\(value)'")
        #expect(rebuild.status == 1 && named, "\(key) = \(value): \(rebuild.hookTestSummary)")
        let log = (try? String(contentsOfFile: world.hookLogPath, encoding: .utf8)) ?? ""
        let commit = try world.commit(in: repository, "With \(key) = \(value)")
        let logged = ((try? String(contentsOfFile: world.hookLogPath, encoding: .utf8)) ?? "").dropFirst(log.count)
        #expect(commit.status == 0, "\(key)")
        #expect(commit.standardError.split(separator: "\n").count == 1, "\(key): \(commit.standardError)")
        #expect(logged.contains(key), "\(key): the hook log says \(logged)")
        if rebuild.status == 1 && named && commit.status == 0 && logged.contains(key) { passed += 1 }
      }
      // Not git-config syntax at all.
      let saved = try #require(FileManager.default.contents(atPath: world.configPath))
      try Data([0x5B, 0x00, 0xFF, 0x0A, 0x3D, 0x3D]).write(to: URL(fileURLWithPath: world.configPath))
      let garbage = try world.gitjournal("rebuild", "--no-narrative", in: repository)
      #expect(garbage.status == 1 && garbage.standardError.contains(world.configPath), "\(garbage.hookTestSummary)")
      let commit = try world.commit(in: repository, "With a garbage config file")
      #expect(commit.status == 0)
      if garbage.status == 1 && commit.status == 0 { passed += 1 }
      try saved.write(to: URL(fileURLWithPath: world.configPath))

      // Once the config is fixed, every commit made meanwhile is journaled.
      let last = try world.commit(in: repository, "After the config was fixed")
      #expect(last.standardError.isEmpty, "\(last.standardError)")
      let count = try world.revisions("HEAD", in: repository).count
      #expect(world.journal(last.day)?.contains("\ncommits: \(count)\n") == true)
      ReliabilityTable.record(
        "hostile: config values of the wrong type", tried: Self.wrongValues.count + 1, passed: passed, dataLost: 0)
    }

    /// Author dates at the ends of the range: the first second of 1970 and the last of 2100, committed today.
    @Test func authorDatesIn1970And2100() throws {
      let repository = try installedRepository("code/app")
      let cases = [
        (date: "@1 +0000", day: "1970-01-01", title: "# Thursday, 1 January 1970"),
        (date: "@4133980799 +0000", day: "2100-12-31", title: "# Friday, 31 December 2100"),
        (date: "@4133980799 -1200", day: "2100-12-31", title: "# Friday, 31 December 2100"),
      ]
      var passed = 0
      for (index, item) in cases.enumerated() {
        let commit = try world.commit(in: repository, "Dated commit \(index)", authorDate: item.date)
        #expect(commit.standardError.isEmpty, "\(item.date): \(commit.standardError)")
        #expect(commit.day == item.day)
        let journal = world.journal(item.day) ?? ""
        let listed = HookWorld.count(commit.journalID, in: journal) == 1
        #expect(listed, "\(item.date): not journaled on \(item.day): \(world.journalFolderNames())")
        #expect(journal.contains("\n\(item.title)\n") && journal.hasPrefix("---\ndate: \(item.day)\n"), "\(journal)")
        let rebuild = try world.gitjournal("rebuild", item.day, "--no-narrative", in: repository)
        #expect(rebuild.status == 0, "\(rebuild.hookTestSummary)")
        let kept = world.journal(item.day).map { HookWorld.count(commit.journalID, in: $0) == 1 } ?? false
        #expect(kept, "\(item.date): a rebuild of \(item.day) lost the commit")
        if listed && kept { passed += 1 }
      }
      ReliabilityTable.record(
        "hostile: author dates in 1970 and 2100", tried: cases.count, passed: passed, dataLost: cases.count - passed)
    }

    /// One configured repository deleted after install, another with a corrupt object: each is skipped with one
    /// line (the corrupt one when it is read afresh), and the healthy repository's commits are journaled.
    @Test func deletedAndCorruptRepositories() throws {
      let app = try installedRepository("code/app")
      let gone = try installedRepository("code/gone")
      let broken = try installedRepository("code/broken")
      try world.commit(in: gone, "Soon deleted")
      for index in 1...3 { try world.commit(in: broken, "Broken repository commit \(index)") }
      let corrupted = try world.git(["rev-parse", "HEAD~1"], in: broken).trimmingCharacters(in: .whitespacesAndNewlines)
      try FileManager.default.removeItem(atPath: gone)
      let object = broken + "/.git/objects/\(corrupted.prefix(2))/\(corrupted.dropFirst(2))"
      chmod(object, 0o644)
      try Data((0..<120).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: URL(fileURLWithPath: object))

      let commit = try world.commit(in: app, "Healthy commit among broken repositories")
      let lines = commit.standardError.split(separator: "\n")
      #expect(lines.count == 1 && lines.first?.contains(world.hookLogPath) == true, "\(commit.standardError)")
      let log = (try? String(contentsOfFile: world.hookLogPath, encoding: .utf8)) ?? ""
      // The hook takes the corrupt repository's records from its window cache (its branches did not move), so
      // only `rebuild`, which reads every repository afresh, meets the damage. (This line once also matched
      // "skipped broken ...: it has no commits yet", logged while that repository was still empty.)
      #expect(log.contains("skipped gone (\(gone))"), "\(log)")
      #expect(world.journal(commit.day).map { HookWorld.count(commit.journalID, in: $0) } == 1)

      let rebuild = try world.gitjournal("rebuild", "--no-narrative", in: app)
      #expect(rebuild.status == 2, "\(rebuild.hookTestSummary)")
      let warnings = rebuild.standardError.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
      #expect(warnings.count == 2, "\(rebuild.standardError)")
      #expect(warnings.contains { $0.contains(gone) } && warnings.contains { $0.contains(broken) })
      let journal = world.journal(commit.day) ?? ""
      let healthy = HookWorld.count(commit.journalID, in: journal) == 1
      #expect(healthy)

      // A commit in the broken repository itself still succeeds.
      let inBroken = try world.commit(in: broken, "Commit on top of the corrupt object")
      #expect(
        inBroken.status == 0 && inBroken.standardError.split(separator: "\n").count <= 1, "\(inBroken.standardError)")
      ReliabilityTable.record(
        "hostile: deleted and corrupt repositories", tried: 2,
        passed: healthy && rebuild.status == 2 && warnings.count == 2 ? 2 : 0, dataLost: healthy ? 0 : 1)
    }

    /// `journal.dir` is a symlink (a synced folder): files are written through it, and it stays a link. A day's file
    /// that is a symlink (into a notes vault, or anywhere a sync tool pointed it) is never written through: it is left
    /// as it is, the hook logs one line and the commit succeeds.
    @Test func symlinkedJournalFolderAndFile() throws {
      let target = try world.scratch.makeFolder("home/Sync/journal")
      let vault = try world.scratch.makeFolder("home/vault")
      let link = world.home + "/journal-link"
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "Sync/journal")
      try world.configure("journal.dir", "~/journal-link")
      let repository = try installedRepository("code/app")

      let first = try world.commit(in: repository, "Through the folder link")
      let file = target + "/\(first.day).md"
      try addNotes(to: file)
      let second = try world.commit(in: repository, "Second commit through the folder link")
      let data = FileManager.default.contents(atPath: file) ?? Data()
      let problems = Self.problems(in: data, commitIDs: [first.id, second.id])
      #expect(problems.isEmpty, "\(problems)")
      #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "Sync/journal")

      // Another day's file lives in the vault, linked from the journal folder.
      let olderDay = HookWorld.pastDate(daysAgo: 3, hour: 10)
      let olderName = String(
        ISO8601DateFormatter.string(
          from: olderDay, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate]))
      let vaultFile = vault + "/\(olderName).md"
      try Data("My vault page for that day.\n".utf8).write(to: URL(fileURLWithPath: vaultFile))
      try FileManager.default.createSymbolicLink(atPath: target + "/\(olderName).md", withDestinationPath: vaultFile)
      let older = try world.commit(
        in: repository, "Older work, into the vault", authorDate: HookWorld.gitDate(olderDay))
      #expect(older.day == olderName)
      #expect(older.status == 0)
      let vaultText = (try? String(contentsOfFile: vaultFile, encoding: .utf8)) ?? ""
      #expect(vaultText == "My vault page for that day.\n")
      #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: target + "/\(olderName).md")) == vaultFile)
      let logged = world.hookLogLines().filter { $0.contains(olderName + ".md") && $0.contains("symlink") }
      #expect(logged.count == 1, "\(world.hookLogLines())")
      let leftovers = (world.scratch.allFiles()).filter { $0.contains(AtomicFile.temporaryMarker) }
      #expect(leftovers.isEmpty, "\(leftovers)")
      let passed = problems.isEmpty && vaultText == "My vault page for that day.\n" && logged.count == 1
      ReliabilityTable.record(
        "hostile: symlinked journal folder, linked day file left alone", tried: 2, passed: passed ? 2 : 0,
        dataLost: passed ? 0 : 1)
    }
  }
}
