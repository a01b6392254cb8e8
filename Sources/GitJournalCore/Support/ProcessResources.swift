import Foundation

/// Facts about the machine that size parallel work.
enum ProcessResources {
  static var activeProcessorCount: Int { ProcessInfo.processInfo.activeProcessorCount }
}
