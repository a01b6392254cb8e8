import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension AtomicFile {
  /// A file's exact bytes and the stamp of the version they were read from.
  package struct Contents: Sendable {
    package let bytes: [UInt8]
    package let stamp: FileStamp
  }

  /// The bytes of the regular file at `path`, or nil when there is none. The file is opened without blocking
  /// and read only when it is a regular file: a FIFO, socket or device in its place is an error, never a wait.
  package static func readContents(_ path: String) throws(SystemError) -> Contents? {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw SystemError("read", path: path)
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw SystemError("read", path: path) }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw SystemError("read", path: path + " (not a regular file)", errorNumber: EINVAL)
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw SystemError("read", path: path)
      }
      if count == 0 { break }
      bytes += chunk[0..<count]
    }
    return Contents(bytes: bytes, stamp: FileStamp(info))
  }

  private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(descriptor, buffer, count)
    #else
      Darwin.read(descriptor, buffer, count)
    #endif
  }
}
