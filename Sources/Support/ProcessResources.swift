import Foundation

/// Facts about the machine that size parallel work.
package enum ProcessResources {
  /// Read once per process, and only when asked: Foundation reads the cgroup's CPU quota files each time (380 K
  /// instructions), and the count does not change under a running command. At least 1.
  package static let activeProcessorCount = max(1, ProcessInfo.processInfo.activeProcessorCount)
}
