import CSystem

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Facts about the machine that size parallel work.
package enum ProcessResources {
  /// Read once per process, and only when asked: Foundation reads the cgroup's CPU quota files each time (380 K
  /// instructions), and the count does not change under a running command. At least 1. For long work (a rebuild).
  package static let activeProcessorCount = max(1, ProcessInfo.processInfo.activeProcessorCount)

  /// The processors this process may run on, by one system call: a cgroup's CPU quota is not counted, so threads
  /// sized by it may share one processor's time. For bursts of system calls a few milliseconds long (the hook's
  /// checks of quiet repositories), where reading the quota would cost more than it could save. At least 1.
  package static let usableProcessorCount = max(1, Int(gitjournal_usable_processors()))
}
