import Foundation
import Testing

@testable import CLI

/// The model is asked only for what someone will read: a commit asks at most for its day's sentence, a burst of
/// commits asks once after it settles, and a running week's or month's page gets no sentence from a commit.
@Suite struct LazyNarrationTests {
  /// The generation requests' prompts that were about a week or a month (their prompts say "This week",
  /// "This month").
  static func periodRequests(_ server: ModelServer) -> [String] {
    server.requests(to: "/api/generate").map(\.bodyText).filter {
      $0.contains("This week I") || $0.contains("This month I")
    }
  }

  @Test func aBurstOfCommitsAsksOnceAfterItSettles() async throws {
    try await DedicatedThread.run {
      let world = try NarrativeWorld(ModelBehaviour(.ollama), periodPages: true)
      let settle = [HookRunner.settleVariable: "1"]
      for index in 1...5 {
        _ = try world.timedCommit("Burst \(index)", authorDate: Date(), environment: settle)
        usleep(300_000)
      }
      let day = try world.hooks.describe("HEAD", in: world.repository).day
      let journal = await world.journal(day, timeout: 20) {
        $0.contains(ModelBehaviour.sentence) && $0.contains("Burst 5")
      }
      await world.finish(timeout: 20)
      #expect(journal != nil, "narrative.log: \(world.narrativeLog)")
      #expect(world.server.generationRequestCount <= 2, "\(world.server.generationRequestCount) requests")
      #expect(Self.periodRequests(world.server).isEmpty, "a running week or month was asked about")
    }
  }

  @Test func spacedCommitsAskAtMostOnceEachAndNeverForTheRunningWeek() async throws {
    try await DedicatedThread.run {
      let world = try NarrativeWorld(ModelBehaviour(.ollama), periodPages: true)
      let settle = [HookRunner.settleVariable: "0.3"]
      let commits = 4
      for index in 1...commits {
        _ = try world.timedCommit("Spaced \(index)", authorDate: Date(), environment: settle)
        usleep(1_300_000)
      }
      let day = try world.hooks.describe("HEAD", in: world.repository).day
      let journal = await world.journal(day, timeout: 20) {
        $0.contains(ModelBehaviour.sentence) && $0.contains("Spaced \(commits)")
      }
      await world.finish(timeout: 20)
      #expect(journal != nil, "narrative.log: \(world.narrativeLog)")
      #expect(world.server.generationRequestCount <= commits, "\(world.server.generationRequestCount) requests")
      #expect(Self.periodRequests(world.server).isEmpty, "a running week or month was asked about")

      // Asked for by name, the running week gets its sentence.
      let narrated = try world.hooks.gitjournal("narrate", "--week", in: world.repository)
      #expect(narrated.status == 0, "\(narrated.hookTestSummary)")
      #expect(Self.periodRequests(world.server).count == 1, "narrative.log: \(world.narrativeLog)")
    }
  }
}
