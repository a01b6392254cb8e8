import Foundation
import Testing

@testable import Facts
@testable import Journal

extension Reliability {
  /// Many repositories committing at once, each `git commit` a real process running the installed hook: every
  /// commit ends up in the day's file exactly once, the user's notes stay as written, and nothing is left behind.
  @Suite struct LoadTests {
    static let repositoryCount = 8
    static let commitsPerRepository = 25

    @Test func parallelCommitsInManyRepositoriesAreEachJournaledOnce() throws {
      let world = try HookWorld()
      // One author instant for every commit: they all land in one day's file whenever the test runs.
      let authorDate = HookWorld.gitDate(Date())
      var repositories: [String] = []
      var day = ""
      for index in 0..<Self.repositoryCount {
        let repository = try world.makeRepository("code/load-\(index)")
        let installed = try world.gitjournal("install", in: repository)
        try #require(installed.status == 0, "\(installed.hookTestSummary)")
        day = try world.commit(in: repository, "load-\(index) initial", authorDate: authorDate).day
        repositories.append(repository)
      }

      let file = world.journalDirectory + "/\(day).md"
      let notesBefore = "Notes before the block: standup at 10, then the load test.\n\n"
      let notesAfter = "\n## My evening notes\n\nNothing may move these lines.\n  indented\tand trailing   \n"
      let initial = try String(contentsOfFile: file, encoding: .utf8)
      let begin: Range<String.Index> = try #require(initial.range(of: JournalMerger.beginPrefix))
      try Data(
        (String(initial[..<begin.lowerBound]) + notesBefore + String(initial[begin.lowerBound...]) + notesAfter).utf8
      )
      .write(
        to: URL(fileURLWithPath: file))

      // Each repository's commits come from one shell loop; the loops run at once. Every commit writes a file, so
      // the hook computes real line statistics.
      let script = """
        i=1
        while [ "$i" -le "$1" ]; do
          printf '%s\\n' "$i" > "change-$i.txt" && git add "change-$i.txt" &&
            git commit -q -m "$0 commit $i" || exit 1
          i=$((i + 1))
        done
        """
      var environment = world.environment
      environment["GIT_AUTHOR_DATE"] = authorDate
      let started = Date()
      let processes = try repositories.enumerated().map { index, repository in
        try Subprocess(
          "/bin/sh", ["-c", script, "load-\(index)", String(Self.commitsPerRepository)], environment: environment,
          currentDirectory: repository)
      }
      var failedLoops = 0
      for (index, process) in processes.enumerated() {
        let result = try process.wait()
        if result.status != 0 || !result.standardError.isEmpty { failedLoops += 1 }
        #expect(result.status == 0, "load-\(index): \(result.hookTestSummary)")
        #expect(result.standardError.isEmpty, "load-\(index): the hook printed \(result.standardError)")
      }
      let seconds = Date().timeIntervalSince(started)

      let journal = try #require(world.journal(day))
      var tried = 0
      var journaledOnce = 0
      for (index, repository) in repositories.enumerated() {
        let ids = try world.revisions("HEAD", in: repository)
        #expect(ids.count == Self.commitsPerRepository + 1, "load-\(index)")
        for id in ids {
          tried += 1
          let count = HookWorld.count("`\(id.prefix(7))`", in: journal)
          if count == 1 { journaledOnce += 1 }
          #expect(count == 1, "load-\(index) commit \(id.prefix(7)) appears \(count) times")
        }
        for number in 1...Self.commitsPerRepository {
          #expect(HookWorld.count(" load-\(index) commit \(number) (", in: journal) == 1, "load-\(index) #\(number)")
        }
      }
      let total = Self.repositoryCount * (Self.commitsPerRepository + 1)
      #expect(tried == total)
      #expect(journal.contains("\ncommits: \(total)\n"), "front matter")
      let notesKept = journal.contains("\n" + notesBefore + JournalMerger.beginPrefix) && journal.hasSuffix(notesAfter)
      #expect(notesKept, "the notes moved or changed:\n\(journal.prefix(2_000))")
      #expect(HookWorld.count(JournalMerger.beginPrefix, in: journal) == 1)
      #expect(HookWorld.count(JournalMerger.endPrefix, in: journal) == 1)
      let week = Week(containing: Day(iso: day)!).description
      let month = String(day.prefix(7))
      #expect(
        world.journalFolderNames() == ["\(day).md", "\(month).md", "\(week).md"],
        "left in the journal folder: \(world.journalFolderNames())")
      // A hook that waited 5 s for the lock skips, as documented, and a later one catches up: what must hold is
      // the journal above. Any other line is a problem. (The whole test suite shares the two cores meanwhile.)
      let problems = world.hookLogLines().filter {
        !$0.contains("skipped: another gitjournal has held the journal lock")
      }
      #expect(problems.isEmpty, "the hook logged problems: \(problems.prefix(5))")

      print("reliability | load: \(total) commits in \(Self.repositoryCount) repositories in \(seconds) s")
      ReliabilityTable.record(
        "load: \(Self.repositoryCount) repos x \(Self.commitsPerRepository) parallel commits", tried: tried,
        passed: failedLoops == 0 && notesKept ? journaledOnce : 0,
        dataLost: (tried - journaledOnce) + (notesKept ? 0 : 1)
      )
    }
  }
}
