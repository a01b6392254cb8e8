#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes: a file descriptor, or a buffer that tests read back.
public final class TextOutput: Sendable {
  private let descriptor: Int32?
  private struct State {
    var buffer = ""
    /// The error of the first write that failed (`ENOSPC` on a full disk, `EPIPE`), if any: what was written is
    /// incomplete, and the command must not say it succeeded.
    var firstError: Int32?
  }
  private let state = Locked(State())

  /// Writes to a file descriptor (1 for stdout, 2 for stderr).
  public init(descriptor: Int32) { self.descriptor = descriptor }

  /// Collects everything written; read it with `text`.
  public init() { self.descriptor = nil }

  public static let standardOutput = TextOutput(descriptor: 1)
  public static let standardError = TextOutput(descriptor: 2)

  public func write(_ text: String) {
    guard let descriptor else {
      state.withLock { $0.buffer += text }
      return
    }
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      #if canImport(Glibc)
        let written = bytes.withUnsafeMutableBytes {
          Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
        }
      #else
        let written = bytes.withUnsafeMutableBytes {
          Darwin.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
        }
      #endif
      if written < 0 && errno == EINTR { continue }
      if written <= 0 {
        let error = written < 0 ? errno : EIO
        state.withLock { state in if state.firstError == nil { state.firstError = error } }
        return
      }
      offset += written
    }
  }

  /// Why a write failed, as the system says it (`No space left on device`), when one did.
  public var failure: String? {
    state.withLock { $0.firstError }.map { String(cString: strerror($0)) }
  }

  /// Writes `text` and a newline.
  public func line(_ text: String = "") { write(text + "\n") }

  /// Everything written so far to a buffer output.
  public var text: String { state.withLock { $0.buffer } }

  /// True when writing to a terminal.
  public var isTerminal: Bool { descriptor.map { isatty($0) == 1 } ?? false }

  /// The terminal's width in columns, or nil when this is not a terminal (or it does not say).
  public var terminalColumns: Int? {
    guard let descriptor, isatty(descriptor) == 1 else { return nil }
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }
}
