#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The absolute path of the running gitjournal binary, which `install` records in the hook.
package enum ExecutablePath {
  package static var current: String {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
    #elseif canImport(Darwin)
      var size: UInt32 = 0
      _ = _NSGetExecutablePath(nil, &size)
      var buffer = [CChar](repeating: 0, count: Int(size) + 1)
      if _NSGetExecutablePath(&buffer, &size) == 0, let resolved = realpath(buffer, nil) {
        defer { free(resolved) }
        return String(cString: resolved)
      }
    #endif
    return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
  }
}
