import Support

/// Files in the journal folder that gitjournal left alone because they came in hostile or broken (a symlink, a copy
/// too large to merge), each with a line that names it and the fix. A write that meets one goes on without it; the
/// hook logs the lines, one per file, so the page is right and the user is told.
public final class RefusedFiles: @unchecked Sendable {
  // Guards `lines`: the journal's writers may run on several threads of one process.
  private let lock = Lock()
  private var lines: [String] = []

  init() {}

  /// Notes `line`, once however many writes meet the same file.
  func note(_ line: String) {
    lock.withLock { if !lines.contains(line) { lines.append(line) } }
  }

  /// The lines noted since the last call.
  public func take() -> [String] {
    lock.withLock {
      defer { lines = [] }
      return lines
    }
  }
}
