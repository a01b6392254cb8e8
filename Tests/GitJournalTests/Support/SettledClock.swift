import Foundation

@testable import GitReader

/// A clock for stamps that runs ahead of the real one, so that a test need not wait for what it just changed to
/// age past the margin that makes a stamp untrustworthy (`PathStamp.isRacy`: a tenth of a second, three seconds
/// where a file system keeps whole seconds).
enum SettledClock {
  /// How far ahead: past both margins.
  static let lead: Int64 = 4

  /// The real time, `lead` seconds on.
  @Sendable static func now() -> PathStamp.Timestamp {
    let now = PathStamp.Timestamp.now
    return PathStamp.Timestamp(seconds: now.seconds + lead, nanoseconds: now.nanoseconds)
  }

  /// Waits until a file written in `folder` gets a later modification time than one written at the call, and
  /// returns that time: every file changed before the call has older times, every file changed after it has this
  /// one or later. The kernel stamps files from a clock that moves in ticks (a few milliseconds), so a change made
  /// within the tick of a stamp taken ahead of time could otherwise keep the times the stamp holds. Waits for one
  /// tick, not for the stamp's margin.
  @discardableResult
  static func fileClockAfterATick(in folder: String) throws -> PathStamp.Timestamp {
    let probe = folder + "/clock-probe-\(UUID().uuidString)"
    defer { unlink(probe) }
    func modified() throws -> timespec {
      try Data("x".utf8).write(to: URL(fileURLWithPath: probe))
      var info = stat()
      guard stat(probe, &info) == 0 else { throw ScratchError("cannot stat \(probe)") }
      #if canImport(Glibc)
        return info.st_mtim
      #else
        return info.st_mtimespec
      #endif
    }
    let first = try modified()
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
      let next = try modified()
      if next.tv_sec != first.tv_sec || next.tv_nsec != first.tv_nsec {
        return PathStamp.Timestamp(seconds: Int64(next.tv_sec), nanoseconds: Int64(next.tv_nsec))
      }
      usleep(500)
    }
    throw ScratchError("the file clock in \(folder) did not move in 5 s")
  }
}
