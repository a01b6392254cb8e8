import CLibgit2
import CSystem
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
    // which clears its pages and interrupts the other core. Measured on libgit2's own history (bench/rebuild.sh):
    // 8 MiB windows were unmapped 57,000 times for 4.6 to 6.3 s of system time; 1 MiB windows 42,000 times,
    // for 3.4 to 4.0 s. A 1 MiB cache, 6 MiB mapped and 512 KiB in `RecentObjects` peak 3 to 4 MB lower than
    // 2 MiB, 8 MiB and 1 MiB, in the same time.
    _ = gitjournal_limit_memory(1 << 20, 1 << 20, 6 << 20)
    // Blobs of a few megabytes come and go during a rebuild: bigger allocations go back as soon as they are freed.
    gitjournal_return_large_allocations(2 << 20)
    return true
  }()

  /// Initializes libgit2 on first use; cheap afterwards.
  package static func ensureInitialized() {
    _ = initialized
  }
}
