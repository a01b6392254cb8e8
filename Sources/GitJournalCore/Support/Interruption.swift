#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-C during a long command: the first one asks the command to stop after the file it is writing (every
/// file stays complete); a second one ends the process at once.
enum Interruption {
  nonisolated(unsafe) private static var requested: sig_atomic_t = 0

  static var isRequested: Bool { requested != 0 }

  static func install() {
    signal(SIGINT) { _ in
      Interruption.requested = 1
      signal(SIGINT, SIG_DFL)
    }
  }
}
