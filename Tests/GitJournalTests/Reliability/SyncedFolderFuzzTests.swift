import Foundation
import Testing

@testable import Facts
@testable import GitReader
@testable import Journal
@testable import Support

extension Reliability {
  /// Seeded random records, shared sentences and conflict copies from "another machine" (issue 43), a bounded number
  /// of rounds, each followed by a run of the built binary (its refusals stay in its own process): whatever they
  /// hold, the run never crashes, never runs past the suite's bound, writes nothing outside the journal folder, and
  /// leaves this machine's own commit as it recorded it; a shared sentence shows on the page only as the model's
  /// guard accepts it.
  @Suite struct SyncedFolderFuzzTests {
    static let day = "2026-03-10"
    /// 2026-03-10 00:00 UTC.
    static let midnight: Int64 = 1_773_100_800
    static let rounds = 40
    /// A sentence the model's guard accepts for the day's facts.
    static let accepted = "I fixed the parser crash."

    static let texts = [
      "Fix", "parser", "![beacon](http://127.0.0.1:9/x.png)", "[click](https://evil.example/)", "[[Private Note]]",
      "~~~", "```", "<script>x</script>", "&amp;", "\u{202E}", "\u{1B}[31m", "\t", "\\", "日本", "", "-",
      "# heading", "<!-- gitjournal:end checksum=000000000000 -->", "---",
    ]
    static let numbers = [
      "0", "1", "-1", "-5", "2147483647", "4294967296", "999999999999999999", "-999999999999999999",
      "99999999999999999999", "x", "", "1e3",
    ]

    static func pick<T>(_ values: [T], _ random: inout SeededGenerator) -> T {
      values[Int.random(in: 0..<values.count, using: &random)]
    }

    static func text(_ random: inout SeededGenerator) -> String {
      (0..<Int.random(in: 1...6, using: &random)).map { _ in pick(texts, &random) }.joined(separator: " ")
    }

    /// A record of the day, valid or not in any of its fields; `own` is this machine's commit, named now and then.
    static func record(_ random: inout SeededGenerator, own: String) -> [UInt8] {
      var lines = [["day", pick(["1", "2", "1", "3"], &random), pick([day, day, "9999-12-31"], &random)]]
      for _ in 0..<Int.random(in: 0...3, using: &random) {
        lines.append(["project", text(&random), "/p", pick(["0", "1"], &random)])
        for index in 0..<Int.random(in: 0...5, using: &random) {
          let id = Int.random(in: 0..<4, using: &random) == 0 ? own : String(repeating: "ab", count: 19) + "0\(index)"
          let time = pick(
            [String(midnight + 3_600), String(midnight), "253402300799", "-62135596800", "9223372036854775807"],
            &random)
          lines.append(
            ["commit", id, time, pick(["0", "60", "-99999"], &random), "0"]
              + (0..<3).map { _ in pick(numbers, &random) }
              + ["Eve", "eve@example.com", text(&random)] + (lines[0][1] == "2" ? [text(&random)] : []))
        }
      }
      if Int.random(in: 0..<5, using: &random) > 0 { lines.append(["end"]) }
      var bytes = StateFile.bytes(of: lines)
      if Int.random(in: 0..<6, using: &random) == 0, !bytes.isEmpty {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
      }
      return bytes
    }

    /// `show <day> --json` of the built binary.
    static func report(_ sandbox: JournalSandbox) throws -> DayReport {
      let shown = try sandbox.runBinary("show", day, "--json")
      return try JSONDecoder().decode(DayReport.self, from: Data(shown.standardOutput.utf8))
    }

    @Test(.timeLimit(.minutes(10))) func randomFilesFromAnotherMachine() async throws {
      let sandbox = try JournalSandbox()
      try sandbox.configure("journal.host", "mine")
      let app = try sandbox.makeRepository("app")
      try sandbox.register(app)
      let own = try app.commit(
        file: "a.txt", content: "one\ntwo\n", message: "Fix the parser crash", date: "2026-03-10T09:00:00Z")
      let first = try sandbox.runBinary("rebuild", Self.day, "--no-narrative")
      try #require(first.status == 0, "\(first)")
      let mine = try #require(try Self.report(sandbox).allCommits.first { $0.id.hex == own })
      let outside = try sandbox.scratch.makeFolder("outside")
      try Data("outside text\n".utf8).write(to: URL(fileURLWithPath: outside + "/file.md"))
      let journal = sandbox.journalDirectory
      var random = SeededGenerator(seed: 0x7379_6E63)
      var shown = 0
      for round in 0..<Self.rounds {
        let host = Self.pick(["beta", "aaa", "zzz"], &random)
        let folder = journal + "/.gitjournal/" + host
        try FileManager.default.createDirectory(atPath: folder + "/sentences", withIntermediateDirectories: true)
        try Data(Self.record(&random, own: own)).write(to: URL(fileURLWithPath: folder + "/\(Self.day).tsv"))
        if Int.random(in: 0..<3, using: &random) == 0 {
          try Data("forgotten\t1\ncommit\t\(own)\nend\n".utf8).write(
            to: URL(fileURLWithPath: folder + "/" + ForgottenCommits.fileName))
        }
        // A sentence for the day's facts as they are now (their signature as the binary makes it), each time in
        // another shape: one the guard accepts, one of 500 KB, or random text and markup.
        let signature = try Self.report(sandbox).signature
        // One machine's sentence at a time: the first machine by name with one for these facts would be taken.
        for other in ["beta", "aaa", "zzz"] {
          try? FileManager.default.removeItem(atPath: journal + "/.gitjournal/\(other)/sentences/\(Self.day).tsv")
        }
        let sentence =
          Int.random(in: 0..<8, using: &random) == 0
          ? String(repeating: "word ", count: 100_000)
          : Int.random(in: 0..<3, using: &random) == 0 ? Self.accepted : Self.text(&random)
        try Data(
          StateFile.bytes(of: [["sentences", "1", Self.day], ["sentence", signature, sentence], ["end"]])
        ).write(to: URL(fileURLWithPath: folder + "/sentences/\(Self.day).tsv"))
        let copy = journal + "/\(Self.day).sync-conflict-\(round)-X.md"
        switch Int.random(in: 0..<3, using: &random) {
        case 0: try FileManager.default.createSymbolicLink(atPath: copy, withDestinationPath: outside + "/file.md")
        case 1:
          let paragraphs = (0..<Int.random(in: 1...50, using: &random)).map { _ in Self.text(&random) }
          try Data(paragraphs.joined(separator: "\n\n").utf8).write(to: URL(fileURLWithPath: copy))
        default: break
        }

        let result = try sandbox.runBinary("rebuild", Self.day, "--no-narrative")
        #expect(result.status == 0 || result.status == 1, "round \(round): \(result)")
        let report = try Self.report(sandbox)
        let kept = report.allCommits.first { $0.id.hex == own }
        #expect(kept == mine, "round \(round): this machine's commit is \(String(describing: kept))")
        let page = try #require(sandbox.journalFile(Self.day), "round \(round)")
        #expect(page.contains("Fix the parser crash") && !page.contains("outside text"), "round \(round)")
        // The copies' text is the user's, merged as it is; the block is gitjournal's, and holds no live link.
        let block = JournalMerger.blockBody(in: page) ?? ""
        let linkLine = block.split(separator: "\n").last.map(String.init) ?? ""
        let generated = block.dropLast(linkLine.count)
        #expect(
          !generated.contains("](") && !generated.contains("[[") && !generated.contains("<script"),
          "round \(round): a live link in \(generated)")
        // Only the sentence the guard accepts is ever on the page, whatever else was shared.
        if page.contains(Self.accepted) { shown += 1 }
      }
      #expect(shown > 0, "no sentence the guard accepts was ever shown")
      // Nothing was written outside the journal folder.
      #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["file.md"])
      #expect(try String(contentsOfFile: outside + "/file.md", encoding: .utf8) == "outside text\n")
    }
  }
}
