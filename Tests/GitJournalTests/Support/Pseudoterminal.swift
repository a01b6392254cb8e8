import Foundation

@testable import Support

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A real terminal for output tests: a pseudo-terminal pair of a given width. `output` writes to its terminal end;
/// `written()` returns what arrived at the other end.
final class Pseudoterminal {
  private let controller: Int32
  private let terminal: Int32
  let output: TextOutput

  init(columns: UInt16 = 80) throws {
    controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    guard controller >= 0 else { throw ScratchError("no pseudo-terminal: \(String(cString: strerror(errno)))") }
    #if os(Linux)
      // unlockpt and ptsname, which Swift's Glibc module does not declare: TIOCSPTLCK and TIOCGPTN.
      var unlock: Int32 = 0
      var number: UInt32 = 0
      guard ioctl(controller, 0x4004_5431, &unlock) == 0, ioctl(controller, 0x8004_5430, &number) == 0 else {
        throw ScratchError("cannot unlock the pseudo-terminal")
      }
      let name = "/dev/pts/\(number)"
    #else
      guard grantpt(controller) == 0, unlockpt(controller) == 0, let cName = ptsname(controller) else {
        throw ScratchError("cannot unlock the pseudo-terminal")
      }
      let name = String(cString: cName)
    #endif
    terminal = open(name, O_RDWR | O_NOCTTY)
    guard terminal >= 0 else { throw ScratchError("cannot open the pseudo-terminal") }
    var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(terminal, UInt(TIOCSWINSZ), &size)
    // Raw: no "\n" to "\r\n", so what arrives is exactly what was written.
    var settings = termios()
    tcgetattr(terminal, &settings)
    cfmakeraw(&settings)
    tcsetattr(terminal, TCSANOW, &settings)
    _ = fcntl(controller, F_SETFL, fcntl(controller, F_GETFL) | O_NONBLOCK)
    output = TextOutput(descriptor: terminal)
  }

  deinit {
    close(terminal)
    close(controller)
  }

  /// The terminal end, as a command's standard input.
  var input: Int32 { terminal }

  /// Types `text` at the terminal: a command reading its standard input from `input` reads it.
  func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
  }

  /// Everything written so far.
  func written() -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
