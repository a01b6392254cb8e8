import Foundation

/// A model server for the narrative tests: a real listening socket on 127.0.0.1 (an ephemeral port), served by
/// its own threads, that answers each request the way the test's script says and records every request.
///
/// Nothing of gitjournal's HTTP client is mocked: the client connects, writes and reads exactly as it would with
/// Ollama or llama-server. The server is bounded: it stops when released, when `stop()` is called, or after
/// `lifetime` seconds (long enough for a test on a machine busy with builds), whichever comes first.
final class ModelServer: Sendable {
  /// One request as the server read it.
  struct Request: Sendable {
    /// The connection's number, from 1 in the order they were accepted.
    let connection: Int
    let method: String
    let path: String
    /// Header names in lowercase.
    let headers: [String: String]
    let body: Data
    let receivedAt: Date

    var bodyText: String { String(decoding: body, as: UTF8.self) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
      try JSONDecoder().decode(type, from: body)
    }
  }

  /// A complete HTTP response.
  struct Reply: Sendable {
    var status: Int
    var contentType: String
    var body: Data
    /// Sent with `Transfer-Encoding: chunked` in small chunks instead of a Content-Length.
    var chunked = false
    /// Exact bytes to send instead of a well-formed response.
    var raw: [UInt8]?

    /// Whatever bytes a test wants on the wire, well-formed or not.
    static func raw(_ bytes: [UInt8]) -> Reply {
      Reply(status: 0, contentType: "", body: Data(), raw: bytes)
    }

    static func json(_ text: String, status: Int = 200) -> Reply {
      Reply(status: status, contentType: "application/json; charset=utf-8", body: Data(text.utf8))
    }

    static func json(object: Any, status: Int = 200) -> Reply {
      let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
      return Reply(status: status, contentType: "application/json; charset=utf-8", body: data)
    }

    static func text(_ text: String, status: Int = 200, type: String = "text/plain; charset=utf-8") -> Reply {
      Reply(status: status, contentType: type, body: Data(text.utf8))
    }

    /// The same reply with chunked transfer encoding.
    var inChunks: Reply {
      var copy = self
      copy.chunked = true
      return copy
    }

    /// The bytes on the wire: status line, headers, body.
    var bytes: [UInt8] {
      if let raw { return raw }
      var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Type: \(contentType)\r\n"
      head += "Date: Tue, 10 Mar 2026 12:00:00 GMT\r\nConnection: close\r\n"
      let payload = Array(body)
      guard chunked else {
        return Array((head + "Content-Length: \(payload.count)\r\n\r\n").utf8) + payload
      }
      var wire = Array((head + "Transfer-Encoding: chunked\r\n\r\n").utf8)
      var offset = 0
      while offset < payload.count {
        let size = min(7, payload.count - offset)
        // A chunk extension now and then: a client must ignore it.
        let extensionText = offset == 0 ? ";note=first" : ""
        wire += Array("\(String(size, radix: 16))\(extensionText)\r\n".utf8)
        wire += payload[offset..<(offset + size)]
        wire += Array("\r\n".utf8)
        offset += size
      }
      wire += Array("0\r\n\r\n".utf8)
      return wire
    }

    private static func reason(_ status: Int) -> String {
      switch status {
      case 200: return "OK"
      case 404: return "Not Found"
      case 500: return "Internal Server Error"
      case 503: return "Service Unavailable"
      default: return "Status"
      }
    }
  }

  /// What the server does with one request.
  indirect enum Action: Sendable {
    /// Answers at once.
    case respond(Reply)
    /// Reads the request and never answers, until the client closes or the server stops.
    case silent
    /// Waits, then does the next action (unless the client gave up meanwhile).
    case delay(Double, then: Action)
    /// Sends the reply one byte per `interval` seconds.
    case drip(Reply, interval: Double)
    /// Sends these bytes, then nothing more until the client closes or the server stops: an answer that never ends.
    case unfinished([UInt8])
    /// Closes the connection without a byte.
    case hangUp
    /// Resets the connection (RST), as a crashing server's kernel does.
    case reset
  }

  typealias Script = @Sendable (Request) -> Action

  let port: UInt16
  private let core: Core

  var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Starts listening at once; `script` decides every answer (it can be replaced while the server runs).
  init(lifetime: Double = 300, script: @escaping Script) throws {
    let listener = try Self.makeListener()
    port = try Self.boundPort(listener)
    core = Core(listener: listener, port: port, script: script, stopAt: Date().addingTimeInterval(lifetime))
    let core = self.core
    let thread = Thread { core.acceptLoop() }
    thread.name = "ModelServer accept"
    thread.start()
  }

  deinit {
    // Without waiting: a test's last reference may go away on a thread of the cooperative pool.
    core.stop(waiting: false)
  }

  /// Replaces the script for the requests that arrive from now on.
  func setScript(_ script: @escaping Script) { core.setScript(script) }

  /// Every request so far, in the order they arrived.
  var requests: [Request] { core.snapshot().requests }

  func requests(to path: String) -> [Request] { requests.filter { $0.path == path } }

  /// Connections the client closed while the server was still waiting or sending.
  var connectionsClosedByClient: Int { core.snapshot().closedByClient.count }

  /// When the client closed the connection of `request` before the server was done with it, if it did.
  func clientClosed(_ request: Request) -> Date? { core.snapshot().closedByClient[request.connection] }

  /// Seconds from the arrival of `request` until the client gave up on it, if it did. Measured by the server's
  /// threads, so it says how long the client waited whatever the load on the test process's threads.
  func clientPatience(_ request: Request) -> Double? {
    clientClosed(request).map { $0.timeIntervalSince(request.receivedAt) }
  }

  /// Connections accepted so far.
  var connectionCount: Int { core.snapshot().connections }

  /// Stops listening (the port refuses connections once this returns) and ends every open connection.
  func stop() { core.stop(waiting: true) }

  /// A loopback URL on which nothing listens: connecting to it is refused. Its port stays bound, never listening,
  /// for the rest of the run: a port merely let go could be taken by another test's server meanwhile, which would
  /// then answer (and count) this test's requests.
  static func refusingURL() throws -> String {
    try refusingAddress.get()
  }

  private static let refusingAddress = Result { () throws -> String in
    let reserved = try makeListener(listening: false)
    return "http://127.0.0.1:\(try boundPort(reserved))"
  }

  /// Polls `condition` every 20 ms for up to `timeout` seconds; true as soon as it holds.
  @discardableResult
  func waitUntil(timeout: Double = 5, _ condition: (ModelServer) -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition(self) { return true }
      try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return condition(self)
  }

  /// A socket bound to an ephemeral loopback port, listening unless `listening` is false (then connecting to the
  /// port is refused, and no other socket can take it while this one is open).
  private static func makeListener(listening: Bool = true) throws -> Int32 {
    guard let descriptor = boundSocket(port: 0) else {
      throw ScratchError("cannot bind 127.0.0.1: \(String(cString: strerror(errno)))")
    }
    guard !listening || listen(descriptor, 64) == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw ScratchError("cannot listen on 127.0.0.1: \(reason)")
    }
    return descriptor
  }

  /// A socket bound to `port` on loopback, not listening, or -1 when the port is taken: a stopped server's port kept
  /// from other tests' servers while the stopped one lives (see `Core.acceptLoop`).
  fileprivate static func reserve(port: UInt16) -> Int32 {
    boundSocket(port: port, reusingAddress: true) ?? -1
  }

  /// A TCP socket bound to `port` on 127.0.0.1 (0: any free port), or nil (errno says why). `reusingAddress`: bound
  /// even while connections of a closed socket on that port linger.
  private static func boundSocket(port: UInt16, reusingAddress: Bool = false) -> Int32? {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
      if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    #endif
    guard descriptor >= 0 else { return nil }
    if reusingAddress {
      var on: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      let saved = errno
      close(descriptor)
      errno = saved
      return nil
    }
    return descriptor
  }

  private static func boundPort(_ descriptor: Int32) throws -> UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let status = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard status == 0 else { throw ScratchError("getsockname: \(String(cString: strerror(errno)))") }
    return UInt16(bigEndian: address.sin_port)
  }
}

/// The server's state, shared by its threads. `@unchecked Sendable`: every mutable field is guarded by `lock`.
private final class Core: @unchecked Sendable {
  struct Snapshot {
    var requests: [ModelServer.Request]
    var closedByClient: [Int: Date]
    var connections: Int
  }

  private let lock = NSLock()
  private let listener: Int32
  private let port: UInt16
  /// The port bound again, not listening, once the listener is closed (see `ModelServer.reserve`); closed with this.
  private var reservation: Int32 = -1
  private let stopAt: Date
  private var script: ModelServer.Script
  private var requests: [ModelServer.Request] = []
  private var closedByClient: [Int: Date] = [:]
  private var connections = 0
  private var openConnections = 0
  private var stopped = false
  private let acceptLoopEnded = DispatchSemaphore(value: 0)
  private var acceptLoopRunning = true

  init(listener: Int32, port: UInt16, script: @escaping ModelServer.Script, stopAt: Date) {
    self.listener = listener
    self.port = port
    self.script = script
    self.stopAt = stopAt
  }

  deinit {
    if reservation >= 0 { close(reservation) }
  }

  func setScript(_ script: @escaping ModelServer.Script) { lock.withLock { self.script = script } }

  func snapshot() -> Snapshot {
    lock.withLock { Snapshot(requests: requests, closedByClient: closedByClient, connections: connections) }
  }

  var isStopped: Bool { lock.withLock { stopped } || Date() >= stopAt }

  /// Stops accepting; the threads notice within 20 ms. `waiting`: until the listening socket is closed and the
  /// connections ended.
  func stop(waiting: Bool) {
    let wasRunning = lock.withLock {
      stopped = true
      // Refused from now on, however long the accept loop takes to notice on a loaded machine: a listening
      // socket shut down stops listening. Under the lock, so the loop cannot have closed it meanwhile.
      if acceptLoopRunning { shutdown(listener, Int32(SHUT_RDWR)) }
      return acceptLoopRunning
    }
    guard waiting else { return }
    if wasRunning { _ = acceptLoopEnded.wait(timeout: .now() + 2) }
    let deadline = Date().addingTimeInterval(2)
    while lock.withLock({ openConnections }) > 0 && Date() < deadline { usleep(5_000) }
  }

  func acceptLoop() {
    defer {
      lock.withLock {
        close(listener)
        // The port stays refused to connections and taken from other tests' servers while this server lives: a
        // test that stopped it to see a refusal would otherwise reach whichever server took the port next.
        reservation = ModelServer.reserve(port: port)
        acceptLoopRunning = false
      }
      acceptLoopEnded.signal()
    }
    while !isStopped {
      var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 20) > 0 else { continue }
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { continue }
      _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
      _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
      #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
      #endif
      let number = lock.withLock {
        connections += 1
        openConnections += 1
        return connections
      }
      let thread = Thread { [self] in
        serve(connection, number: number)
        lock.withLock { openConnections -= 1 }
      }
      thread.name = "ModelServer connection"
      thread.start()
    }
  }

  private func serve(_ connection: Int32, number: Int) {
    var action = ModelServer.Action.hangUp
    defer {
      if case .reset = action {
        // Closing with a zero linger time sends RST instead of FIN.
        var immediately = linger(l_onoff: 1, l_linger: 0)
        setsockopt(connection, SOL_SOCKET, SO_LINGER, &immediately, socklen_t(MemoryLayout<linger>.size))
      } else {
        shutdown(connection, Int32(SHUT_RDWR))
      }
      close(connection)
    }
    guard let request = readRequest(connection, number: number) else { return }
    let script = lock.withLock {
      requests.append(request)
      return self.script
    }
    action = script(request)
    perform(action, on: connection, number: number)
  }

  private func perform(_ action: ModelServer.Action, on connection: Int32, number: Int) {
    switch action {
    case .respond(let reply):
      _ = sendAll(reply.bytes, on: connection, number: number)
    case .silent:
      _ = waitForClientClose(connection, number: number, until: .distantFuture)
    case .delay(let seconds, let next):
      if waitForClientClose(connection, number: number, until: Date().addingTimeInterval(seconds)) { return }
      perform(next, on: connection, number: number)
    case .drip(let reply, let interval):
      for byte in reply.bytes {
        guard sendAll([byte], on: connection, number: number) else { return }
        if waitForClientClose(connection, number: number, until: Date().addingTimeInterval(interval)) { return }
      }
    case .unfinished(let bytes):
      guard sendAll(bytes, on: connection, number: number) else { return }
      _ = waitForClientClose(connection, number: number, until: .distantFuture)
    case .hangUp, .reset:
      return
    }
  }

  /// Reads one request: head up to the blank line, then a body of Content-Length bytes.
  private func readRequest(_ connection: Int32, number: Int) -> ModelServer.Request? {
    var received: [UInt8] = []
    let deadline = Date().addingTimeInterval(10)
    var headEnd: Int?
    var bodyLength = 0
    while !isStopped && Date() < deadline {
      if let end = headEnd, received.count >= end + 4 + bodyLength { break }
      var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 20) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress!, $0.count, 0) }
      if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
      guard count > 0 else { return nil }
      received += buffer[0..<count]
      if headEnd == nil, let end = Self.find([13, 10, 13, 10], in: received) {
        headEnd = end
        let head = String(decoding: received[..<end], as: UTF8.self)
        bodyLength = Self.headers(of: head)["content-length"].flatMap { Int($0) } ?? 0
      }
    }
    guard let end = headEnd, received.count >= end + 4 + bodyLength else { return nil }
    let head = String(decoding: received[..<end], as: UTF8.self)
    let requestLine = head.components(separatedBy: "\r\n")[0].split(separator: " ")
    guard requestLine.count >= 2 else { return nil }
    return ModelServer.Request(
      connection: number, method: String(requestLine[0]), path: String(requestLine[1]), headers: Self.headers(of: head),
      body: Data(received[(end + 4)..<(end + 4 + bodyLength)]), receivedAt: Date())
  }

  /// Sends everything unless the client goes away or the server stops first; false then.
  private func sendAll(_ bytes: [UInt8], on connection: Int32, number: Int) -> Bool {
    var offset = 0
    while offset < bytes.count {
      if isStopped { return false }
      var poller = pollfd(fd: connection, events: Int16(POLLOUT), revents: 0)
      guard poll(&poller, 1, 20) > 0 else { continue }
      let sent = bytes.withUnsafeBytes { raw in
        #if canImport(Glibc)
          send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        #else
          send(connection, raw.baseAddress! + offset, raw.count - offset, 0)
        #endif
      }
      if sent < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        noteClientClosed(number)
        return false
      }
      offset += sent
    }
    return true
  }

  /// Waits until `deadline`; true when the client closed the connection (or the server stopped) first.
  private func waitForClientClose(_ connection: Int32, number: Int, until deadline: Date) -> Bool {
    while Date() < deadline {
      if isStopped { return true }
      var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 20) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress!, $0.count, 0) }
      if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
      if count <= 0 {
        noteClientClosed(number)
        return true
      }
    }
    return false
  }

  private func noteClientClosed(_ number: Int) { lock.withLock { closedByClient[number] = Date() } }

  private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    for index in 0...(bytes.count - needle.count) where bytes[index] == needle[0] {
      if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
    }
    return nil
  }

  private static func headers(of head: String) -> [String: String] {
    var headers: [String: String] = [:]
    for line in head.components(separatedBy: "\r\n").dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return headers
  }
}
