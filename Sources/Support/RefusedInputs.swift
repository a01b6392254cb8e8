/// Files of a journal folder that gitjournal refused, each with the reason, for one line each in the hook's log or
/// on a command's stderr: another machine's records and shared sentences, sync conflict copies, a page that is a
/// symlink. Noted wherever the refusal happens, deep in a reader that has no log of its own, with the path of the
/// file refused; taken once by the command when it ends, for its own journal folder only (a test process runs many
/// commands beside each other, each with a journal of its own).
package enum RefusedInputs {
  private struct Refusals {
    var pending: [(path: String, line: String)] = []
    var seen: Set<String> = []
  }
  private static let refusals = Locked(Refusals())

  /// Notes one refusal of the file at `path`; the same line is noted once per process (a record read for several
  /// pages, say).
  package static func note(_ line: String, about path: String) {
    refusals.withLock { refusals in
      if refusals.seen.insert(line).inserted { refusals.pending.append((path, line)) }
    }
  }

  /// Whether any refusal waits to be taken: nothing else is looked up when none does.
  package static var hasPending: Bool { refusals.withLock { !$0.pending.isEmpty } }

  /// The refusals noted since the last call about files inside `folder` (the journal folder), in the order noted.
  package static func take(inside folder: String) -> [String] {
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    return refusals.withLock { refusals in
      var taken: [String] = []
      refusals.pending.removeAll { refusal in
        guard refusal.path.hasPrefix(prefix) else { return false }
        taken.append(refusal.line)
        return true
      }
      return taken
    }
  }

  /// Every refusal noted in this process whose line contains `text`, whether taken or not: for a test, which shares
  /// the process with others that take theirs.
  package static func noted(containing text: String) -> [String] {
    refusals.withLock { refusals in refusals.seen.filter { $0.contains(text) }.sorted() }
  }
}
