#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads newline-delimited messages from a file descriptor, holding at most `longest` bytes of one: the rest of a
/// longer line is read and dropped, so a client that sends 10 MB without a line feed costs no more memory than a
/// message of the longest size.
struct LineReader {
  /// What the next read found.
  enum Event: Equatable {
    /// A whole line, without its line feed (nor a carriage return before it).
    case line([UInt8])
    /// A line longer than `longest`, dropped; `length` is how long it was.
    case tooLong(length: Int)
    /// The input ended in the middle of a line: these are its bytes (at most `longest`).
    case unterminated([UInt8])
    /// The input ended after a whole line.
    case end
  }

  let descriptor: Int32
  let longest: Int
  private var buffer: [UInt8] = []
  private var start = 0
  private var ended = false
  /// Where to look for the next line feed: the bytes before it were looked at already.
  private var searched = 0

  init(descriptor: Int32, longest: Int) {
    self.descriptor = descriptor
    self.longest = longest
  }

  mutating func next() -> Event {
    var dropped = 0
    while true {
      if let newline = buffer[max(start, searched)...].firstIndex(of: 0x0A) {
        let line = Array(buffer[start..<newline])
        start = newline + 1
        searched = start
        compact()
        if dropped > 0 || line.count > longest { return .tooLong(length: dropped + line.count) }
        return .line(line.last == 0x0D ? Array(line.dropLast()) : line)
      }
      // No line feed in what is held: past the bound, the held bytes are dropped and only counted.
      searched = buffer.count
      if buffer.count - start > longest {
        dropped += buffer.count - start
        buffer.removeAll(keepingCapacity: true)
        start = 0
        searched = 0
      }
      if ended || !fill() {
        ended = true
        let rest = Array(buffer[start...])
        buffer.removeAll()
        start = 0
        searched = 0
        if dropped > 0 { return .tooLong(length: dropped + rest.count) }
        return rest.isEmpty ? .end : .unterminated(rest)
      }
    }
  }

  /// Reads what is there; false at the end of the input or on an error other than an interruption.
  private mutating func fill() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      buffer += chunk[..<count]
      return true
    }
  }

  /// Drops the lines already returned once they are most of the buffer, so it does not grow with the input.
  private mutating func compact() {
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeFirst(start)
      searched -= start
      start = 0
    }
  }
}
