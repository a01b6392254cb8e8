import CLibgit2
import CSystem
import Foundation
import Support

/// Process-wide libgit2 set-up. `git_libgit2_init` must precede every other call; it is reference counted,
/// so gitjournal calls it once and never shuts libgit2 down.
package enum LibGit2 {
  private static let initialized: Bool = {
    git_libgit2_init()
    // Objects are verified by git when written; re-hashing every object on each read costs about a quarter
    // of a stats pass and protects nothing a journal needs.
    _ = gitjournal_disable_strict_hash_verification()
    // A full-history rebuild touches every object about once: a big cache buys little and costs memory (the
    // trees and blobs it reads twice are kept by `RecentObjects`). Pack files are mapped in 1 MiB windows, at
    // most 6 MiB at a time, instead of whole: mapped pages count as the process's memory. Small windows matter
    // as much as the cap. Two workers read different parts of a pack, and each window they replace is unmapped,
    // which clears its pages and interrupts the other core. The figures behind these sizes are in BENCHMARKS.md
    // ("Full-history rebuild").
    _ = gitjournal_limit_memory(1 << 20, 1 << 20, 6 << 20)
    // Blobs of a few megabytes come and go during a rebuild: bigger allocations go back as soon as they are freed.
    gitjournal_return_large_allocations(2 << 20)
    return true
  }()

  /// Pack windows for a long run of diffs in a repository whose packs take `packBytes`: a small history's packs are
  /// mapped whole (windows of `wholePackLimit`, that much mapped), a bigger one's in the 1 MiB windows above. The
  /// generated history of 20,000 small commits (a 21 MB pack) read through 6 MiB of 1 MiB windows mapped and
  /// unmapped 45,000 windows, each under libgit2's process-wide window lock, and took 4.0 s where mapped whole it
  /// took 3.0 s, with 15 MB more memory (see BENCHMARKS.md). The setting is process-wide and repositories are
  /// diffed side by side: the wide windows stay while any run that asked for them is still going (a bigger
  /// repository diffed meanwhile gets them too, still with at most `wholePackLimit` mapped), and the setting only
  /// changes under a lock.
  package static func withPacksMapped<T, Failure: Error>(
    ofSize packBytes: Int, _ body: () throws(Failure) -> T
  ) throws(Failure) -> T {
    ensureInitialized()
    guard packBytes <= wholePackLimit else { return try body() }
    wholePacks.enter()
    defer { wholePacks.leave() }
    return try body()
  }

  /// How many runs of diffs want small packs mapped whole.
  private final class WholePacks: @unchecked Sendable {
    private let lock = NSLock()
    private var runs = 0

    func enter() {
      lock.withLock {
        runs += 1
        if runs == 1 { _ = gitjournal_limit_memory(1 << 20, wholePackLimit, wholePackLimit) }
      }
    }

    func leave() {
      lock.withLock {
        runs -= 1
        if runs == 0 { _ = gitjournal_limit_memory(1 << 20, 1 << 20, 6 << 20) }
      }
    }
  }

  private static let wholePacks = WholePacks()

  /// Packs up to this size are mapped whole for a run of diffs (`withPacksMapped(ofSize:_:)`).
  static let wholePackLimit = 32 << 20

  /// Initializes libgit2 on first use; cheap afterwards.
  package static func ensureInitialized() {
    _ = initialized
  }
}
