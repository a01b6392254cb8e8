import Testing

@testable import Facts

/// A commit's kind of work comes from its subject alone: the conventional-commit type, with or without a scope
/// and `!`, else the leading verb, else `other`.
@Suite struct WorkKindTests {
  @Test(arguments: [
    ("feat: add rate limiter", WorkKind.feature), ("feat(login)!: drop sessions", .feature),
    ("fix(parser): a < b", .fix), ("FIX: shouting", .fix), ("docs: usage", .docs), ("refactor!: split", .refactor),
    ("perf: cache ids", .perf), ("test: cover merges", .test), ("build(deps): bump x", .build), ("ci: cache", .ci),
    ("chore: tidy", .chore), ("revert: \"feat: x\"", .revert), ("Fix the sync conflict", .fix),
    ("Fixes #42", .fix), ("Add export", .feature), ("added a flag", .feature), ("Remove dead code", .refactor),
    ("Refactor the reader", .refactor), ("Update README", .chore), ("Bump version to 1.2.3", .chore),
    ("Document the hook", .docs), ("Test the guard", .test), ("Revert \"Add export\"", .revert),
    ("Optimize the walk", .perf), ("WIP", .other), ("Initial commit", .other), ("vim", .other),
    ("Merge branch 'x'", .other), ("style: spaces", .other), ("  fix: leading spaces", .fix),
    ("fixture: not a type", .other), ("Fixture data", .other),
  ])
  func kindOfSubject(subject: String, kind: WorkKind) {
    #expect(WorkKind(subject: subject) == kind, "\(subject)")
  }

  @Test func countsReadMostFrequentFirstAndOtherLast() {
    var counts = KindCounts()
    counts.add(.other, count: 3)
    counts.add(.feature)
    counts.add(.fix, count: 2)
    #expect(counts.line == "2 fixes, 1 feature, 3 other")
    #expect(KindCounts().line.isEmpty)
    #expect(counts[.fix] == 2 && counts[.docs] == 0)
  }
}
