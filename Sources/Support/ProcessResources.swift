import Foundation

/// Facts about the machine that size parallel work.
package enum ProcessResources {
  package static var activeProcessorCount: Int { ProcessInfo.processInfo.activeProcessorCount }
}
