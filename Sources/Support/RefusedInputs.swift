/// Files read from outside (another machine's records, shared sentences, conflict copies) that gitjournal refused,
/// each with the reason, for one line each in the hook's log or on a command's stderr. Noted wherever the refusal
/// happens, deep in a reader that has no log of its own; taken once by the command when it ends.
package enum RefusedInputs {
  private static let lock = Lock()
  nonisolated(unsafe) private static var lines: [String] = []
  nonisolated(unsafe) private static var seen: Set<String> = []

  /// Notes one refusal; the same line is noted once per process (a record read for several pages, say).
  package static func note(_ line: String) {
    lock.withLock {
      if seen.insert(line).inserted { lines.append(line) }
    }
  }

  /// The refusals noted since the last call, in the order noted.
  package static func take() -> [String] {
    lock.withLock {
      defer { lines = [] }
      return lines
    }
  }

  /// Every refusal noted in this process whose line contains `text`, whether taken or not: for a test, which shares
  /// the process with others that take theirs.
  package static func noted(containing text: String) -> [String] {
    lock.withLock { seen.filter { $0.contains(text) }.sorted() }
  }
}
