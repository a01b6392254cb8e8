import Testing

@testable import Support

/// `Locked`: threads that change its state at once lose no change, and a remembered value is made once.
@Suite struct LockedTests {
  @Test func changesFromSeveralThreadsAreAllKept() {
    let count = Locked(0)
    SideThreads.together(threads: 4) { _ in
      for _ in 0..<10_000 { count.withLock { $0 += 1 } }
    }
    #expect(count.withLock { $0 } == 40_000)
  }

  @Test func aRememberedValueIsMadeOnceUntilItIsForgotten() {
    let made = Locked(0)
    let kept = Locked<String?>(nil)
    let answers = SideThreads.map(parts: 4) { _ in
      kept.remembered {
        made.withLock { $0 += 1 }
        return "listed"
      }
    }
    #expect(answers == Array(repeating: "listed", count: 4))
    #expect(made.withLock { $0 } == 1)
    kept.withLock { $0 = nil }
    _ = kept.remembered {
      made.withLock { $0 += 1 }
      return "again"
    }
    #expect(made.withLock { $0 } == 2)
  }
}
