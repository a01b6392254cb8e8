import Foundation

/// Facts about the machine that size parallel work.
package enum ProcessResources {
  /// Read once per process: Foundation reads the cgroup's CPU quota files each time (240 K instructions, twice in
  /// every hook), and the count does not change under a running command.
  package static let activeProcessorCount = ProcessInfo.processInfo.activeProcessorCount
}
