import Foundation

@testable import Support

/// A TCP listener on all interfaces that counts the connections it accepts and closes each at once: the
/// privacy tests point gitjournal at this machine's own non-loopback address, where a connection attempt would
/// be seen here. It never leaves the machine; it stops when released.
final class ConnectionCounter: Sendable {
  let port: UInt16
  private let state: State

  init() throws {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw ScratchError("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = INADDR_ANY
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(descriptor, 16) == 0 else {
      close(descriptor)
      throw ScratchError("cannot listen: \(String(cString: strerror(errno)))")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    port = UInt16(bigEndian: address.sin_port)
    let state = State(listener: descriptor)
    self.state = state
    Thread { state.acceptLoop() }.start()
  }

  deinit { state.stop() }

  var connections: Int { state.connections }

  /// An IPv4 address of this machine that is not loopback (an up interface's), or nil when it has none.
  static func nonLoopbackAddress() -> String? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0, let first = list else { return nil }
    defer { freeifaddrs(list) }
    var entry: UnsafeMutablePointer<ifaddrs>? = first
    while let current = entry {
      entry = current.pointee.ifa_next
      let flags = Int32(current.pointee.ifa_flags)
      guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
        flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
      else { continue }
      var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
      let converted = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
        var raw = inet.pointee.sin_addr
        return inet_ntop(AF_INET, &raw, &text, socklen_t(INET_ADDRSTRLEN))
      }
      guard converted != nil else { continue }
      let name = String(decoding: text.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if !name.hasPrefix("127.") { return name }
    }
    return nil
  }
}

/// The listener's side, shared with its thread.
private final class State: Sendable {
  private let listener: Int32
  private let accepted = Locked(0)
  private let stopped = Locked(false)
  private let ended = DispatchSemaphore(value: 0)

  init(listener: Int32) { self.listener = listener }

  var connections: Int { accepted.withLock { $0 } }

  func stop() {
    stopped.withLock { $0 = true }
    _ = ended.wait(timeout: .now() + 2)
  }

  func acceptLoop() {
    defer {
      close(listener)
      ended.signal()
    }
    while !stopped.withLock({ $0 }) {
      var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 10) > 0 else { continue }
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { continue }
      accepted.withLock { $0 += 1 }
      close(connection)
    }
  }
}
