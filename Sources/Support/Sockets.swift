#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few socket calls whose spelling differs between Glibc and Darwin.
package enum Sockets {
  /// A non-blocking, close-on-exec stream socket.
  package static func makeStreamSocket(family: Int32) -> Int32 {
    #if canImport(Glibc)
      return Glibc.socket(
        family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    #else
      let descriptor = Darwin.socket(family, SOCK_STREAM, 0)
      if descriptor >= 0 {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
      }
      return descriptor
    #endif
  }

  package static func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
      return Glibc.connect(descriptor, address, length)
    #else
      return Darwin.connect(descriptor, address, length)
    #endif
  }

  package static var streamType: Int32 {
    #if canImport(Glibc)
      return Int32(SOCK_STREAM.rawValue)
    #else
      return SOCK_STREAM
    #endif
  }

  /// `send` flags that keep a closed peer from raising SIGPIPE (Darwin uses SO_NOSIGPIPE instead).
  package static var noSignal: Int32 {
    #if canImport(Glibc)
      return Int32(MSG_NOSIGNAL)
    #else
      return 0
    #endif
  }

  package static var shutdownBoth: Int32 {
    #if canImport(Glibc)
      return Int32(SHUT_RDWR)
    #else
      return SHUT_RDWR
    #endif
  }
}
