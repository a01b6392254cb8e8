import Testing

@testable import Support

/// `Locked`: threads that change its state at once lose no change.
@Suite struct LockedTests {
  @Test func changesFromSeveralThreadsAreAllKept() {
    let count = Locked(0)
    SideThreads.together(threads: 4) { _ in
      for _ in 0..<10_000 { count.withLock { $0 += 1 } }
    }
    #expect(count.withLock { $0 } == 40_000)
  }
}
