import Foundation
import Testing

/// A narrator decorates the facts already written and nothing else: one that started before the user changed
/// the journal never puts the old state back into the file.
@Suite struct StaleNarratorTests {
  @Test func aNarratorStartedBeforeAConfigChangeNeverWritesTheOldState() async throws {
    try await DedicatedThread.run {
      var behaviour = ModelBehaviour(.ollama)
      behaviour.generationDelay = 1.5
      let world = try NarrativeWorld(behaviour, timeout: "6")
      let other = try world.hooks.makeRepository("code/other")
      let installed = try world.hooks.gitjournal("install", in: other)
      #expect(installed.status == 0, "\(installed.hookTestSummary)")
      let yesterday = HookWorld.pastDate(daysAgo: 1, hour: 12)
      _ = try world.timedCommit("Teach the parser about tabs", authorDate: yesterday)
      let day = try world.hooks.describe("HEAD", in: world.repository).day

      // The narrator is now waiting for the model; the project is renamed and a commit elsewhere rewrites the day.
      let asked = Date().addingTimeInterval(5)
      while world.server.generationRequestCount == 0 && Date() < asked { usleep(20_000) }
      #expect(world.server.generationRequestCount == 1, "the narrator never asked the model")
      try world.hooks.git(
        ["config", "-f", world.hooks.configPath, "--rename-section", "repo.app", "repo.renamed"], in: world.home)
      _ = try world.timedCommit("Tidy the footer", in: other, authorDate: yesterday.addingTimeInterval(60))
      #expect(world.hooks.journal(day)?.contains("## renamed") == true)

      // From here on the file must never show the old name again, while every narrator finishes.
      var stale: String?
      let deadline = Date().addingTimeInterval(15)
      while Date() < deadline {
        if let text = world.hooks.journal(day), text.contains("## app") { stale = text }
        if !NarratorProcesses.canSeeProcesses || NarratorProcesses.running(home: world.home).isEmpty { break }
        usleep(20_000)
      }
      await world.finish()
      #expect(stale == nil, "a narrator wrote the old state back:\n\(stale ?? "")")
      let text = try #require(world.hooks.journal(day))
      #expect(text.contains("## renamed") && text.contains("## other") && !text.contains("## app"), "\(text)")
    }
  }
}
