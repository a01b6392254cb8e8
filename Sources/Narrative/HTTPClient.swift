import Facts
import GitReader
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 client for talking to a model server on this machine.
///
/// gitjournal writes its own rather than use URLSession: on Linux URLSession only bounds the idle time
/// between bytes (a server that drips a byte a second never times out) and links libcurl into every run,
/// the post-commit hook's included. Here every request has one total deadline, enforced with `poll`, and
/// cancelling the task shuts the socket down at once. Plain `http` only: the servers it talks to are local.
package struct HTTPClient: Sendable {
  package struct Response: Sendable {
    package let status: Int
    package let body: Data
  }

  enum Failure: Error, Equatable, CustomStringConvertible {
    case invalidURL(String)
    case unsupportedScheme(String)
    /// No connection could be made: nothing listens there, or the name does not resolve.
    case connectionFailed(String)
    /// The connection was made, then broke (reset, or a send or receive failed).
    case connectionLost(String)
    case timedOut(seconds: Double)
    case malformedResponse(String)
    case responseTooLarge(limit: Int)
    case cancelled

    var description: String {
      switch self {
      case .invalidURL(let url): return "'\(url)' is not a valid http URL"
      case .unsupportedScheme(let scheme):
        return "the \(scheme) scheme is not supported: local model servers speak plain http"
      case .connectionFailed(let reason): return "cannot connect: \(reason)"
      case .connectionLost(let reason): return "the connection broke: \(reason)"
      case .timedOut(let seconds): return "no complete answer within \(SecondsText.format(seconds)) s"
      case .malformedResponse(let reason): return "malformed HTTP response: \(reason)"
      case .responseTooLarge(let limit): return "the answer is larger than \(limit / 1024) KiB"
      case .cancelled: return "cancelled"
      }
    }
  }

  /// Answers larger than this are refused: a sentence is a few hundred bytes.
  static let maximumResponseBytes = 4 * 1024 * 1024

  /// Sends one request and returns the whole response, or throws when `timeout` seconds pass first.
  func send(method: String, url: URL, body: Data? = nil, timeout: Double) async throws -> Response {
    let endpoint = try Endpoint(url)
    let request = Self.requestBytes(method: method, endpoint: endpoint, body: body)
    let connection = Connection()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // Blocking socket work runs on its own thread, not on the cooperative pool.
        let isStarted = SideThreads.detach {
          continuation.resume(with: Result { try connection.exchange(request, with: endpoint, timeout: timeout) })
        }
        if !isStarted { continuation.resume(throwing: Failure.connectionFailed("no thread could be started for it")) }
      }
    } onCancel: {
      connection.cancel()
    }
  }

  static func requestBytes(method: String, endpoint: Endpoint, body: Data?) -> [UInt8] {
    var head = "\(method) \(endpoint.path) HTTP/1.1\r\nHost: \(endpoint.hostHeader)\r\n"
    head += "User-Agent: gitjournal/\(Version.current)\r\nAccept: application/json\r\nConnection: close\r\n"
    if let body {
      head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
    }
    head += "\r\n"
    return Array(head.utf8) + (body.map { Array($0) } ?? [])
  }

  /// Where a URL points: the address to connect to and what to put in the request line.
  struct Endpoint: Sendable {
    let host: String
    let port: UInt16
    let path: String
    let hostHeader: String

    init(_ url: URL) throws(Failure) {
      guard let scheme = url.scheme?.lowercased() else { throw .invalidURL(url.absoluteString) }
      guard scheme == "http" else { throw .unsupportedScheme(scheme) }
      guard var host = url.host, !host.isEmpty else { throw .invalidURL(url.absoluteString) }
      if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
      self.host = host
      // Foundation parses any number of digits as the port: 65536 or 99999 would trap in UInt16(_:).
      guard let port = UInt16(exactly: url.port ?? 80), port > 0 else { throw .invalidURL(url.absoluteString) }
      self.port = port
      var path = url.path.isEmpty ? "/" : url.path
      if let query = url.query { path += "?" + query }
      self.path = path
      let bracketed = host.contains(":" as Character) ? "[\(host)]" : host
      hostHeader = url.port.map { "\(bracketed):\($0)" } ?? bracketed
    }
  }
}

/// One socket's life. The descriptor is shared under a lock, so that `cancel` from another thread can shut it down
/// while `exchange` blocks in `poll`, and never one closed meanwhile (whose number may be another file's by then).
private final class Connection: Sendable {
  private struct Socket {
    var descriptor: Int32 = -1
    var isCancelled = false
  }
  private let shared = Locked(Socket())

  func cancel() {
    shared.withLock { shared in
      shared.isCancelled = true
      if shared.descriptor >= 0 { shutdown(shared.descriptor, Sockets.shutdownBoth) }
    }
  }

  private var isCancelled: Bool { shared.withLock { $0.isCancelled } }

  func exchange(_ request: [UInt8], with endpoint: HTTPClient.Endpoint, timeout: Double) throws -> HTTPClient.Response {
    let deadline = Date().addingTimeInterval(timeout)
    let socket = try connect(endpoint, deadline: deadline, timeout: timeout)
    defer { closeSocket(socket) }
    try sendAll(request, on: socket, deadline: deadline, timeout: timeout)
    let raw = try receiveAll(on: socket, deadline: deadline, timeout: timeout)
    return try HTTPResponseParser.parse(raw)
  }

  private func remainingMilliseconds(_ deadline: Date, timeout: Double) throws -> Int32 {
    if isCancelled { throw HTTPClient.Failure.cancelled }
    let remaining = deadline.timeIntervalSinceNow
    // NaN fails this test too; the minimum keeps the conversion in Int32's range whatever `timeout` was.
    guard remaining > 0 else { throw HTTPClient.Failure.timedOut(seconds: timeout) }
    return Int32(exactly: min(remaining * 1000, 60_000).rounded(.up)) ?? 60_000
  }

  private func connect(_ endpoint: HTTPClient.Endpoint, deadline: Date, timeout: Double) throws -> Int32 {
    var hints = addrinfo()
    hints.ai_socktype = Sockets.streamType
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let host = endpoint.host == "localhost" ? "127.0.0.1" : endpoint.host
    let status = getaddrinfo(host, String(endpoint.port), &hints, &list)
    guard status == 0, let first = list else {
      throw HTTPClient.Failure.connectionFailed(
        "cannot resolve \(endpoint.host): \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(list) }

    var lastError = "no address for \(endpoint.host)"
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let address = entry {
      entry = address.pointee.ai_next
      let socket = Sockets.makeStreamSocket(family: address.pointee.ai_family)
      guard socket >= 0 else { continue }
      shared.withLock { $0.descriptor = socket }
      if Sockets.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return socket }
      if errno == EINPROGRESS {
        var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&poller, 1, try remainingMilliseconds(deadline, timeout: timeout))
        if ready == 0 {
          closeSocket(socket)
          throw HTTPClient.Failure.timedOut(seconds: timeout)
        }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
        if ready > 0 && error == 0 { return socket }
        lastError = String(cString: strerror(error == 0 ? errno : error))
      } else {
        lastError = String(cString: strerror(errno))
      }
      closeSocket(socket)
    }
    if isCancelled { throw HTTPClient.Failure.cancelled }
    throw HTTPClient.Failure.connectionFailed("\(endpoint.hostHeader): \(lastError)")
  }

  private func closeSocket(_ descriptor: Int32) {
    shared.withLock { shared in
      close(descriptor)
      shared.descriptor = -1
    }
  }

  private func sendAll(_ bytes: [UInt8], on socket: Int32, deadline: Date, timeout: Double) throws {
    var offset = 0
    while offset < bytes.count {
      var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
      let ready = poll(&poller, 1, try remainingMilliseconds(deadline, timeout: timeout))
      if ready == 0 { continue }
      let sent = bytes.withUnsafeBytes { send(socket, $0.baseAddress! + offset, $0.count - offset, Sockets.noSignal) }
      if sent < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        if isCancelled { throw HTTPClient.Failure.cancelled }
        throw HTTPClient.Failure.connectionLost(String(cString: strerror(errno)))
      }
      offset += sent
    }
  }

  /// Reads until the server closes the connection (the request said `Connection: close`) or the response is
  /// complete by its own framing.
  private func receiveAll(on socket: Int32, deadline: Date, timeout: Double) throws -> [UInt8] {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      if HTTPResponseParser.isComplete(received) { return received }
      var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, try remainingMilliseconds(deadline, timeout: timeout))
      if ready == 0 { continue }
      let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress!, $0.count, 0) }
      if count < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        if isCancelled { throw HTTPClient.Failure.cancelled }
        throw HTTPClient.Failure.connectionLost(String(cString: strerror(errno)))
      }
      if count == 0 {
        if isCancelled { throw HTTPClient.Failure.cancelled }
        return received
      }
      received += buffer[0..<count]
      if received.count > HTTPClient.maximumResponseBytes {
        throw HTTPClient.Failure.responseTooLarge(limit: HTTPClient.maximumResponseBytes)
      }
    }
  }
}
