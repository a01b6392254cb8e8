#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A whole file mapped read-only, for readers that jump around in it (a pack's index and data).
///
/// Immutable once made, so any number of threads may read it at once. The mapping holds the file even if it is
/// deleted or replaced by a new one meanwhile (a `git gc` while a rebuild runs), as git does with packs: the bytes
/// stay those that were opened. A file rewritten in place would show through, and one cut short would end the
/// process at the first read past its end: only files that are never changed in place are mapped.
package final class MappedFile: @unchecked Sendable {
  package let bytes: UnsafeRawBufferPointer

  /// Nil when the file cannot be opened or mapped, is empty, or is not a regular file. Opened without waiting: a
  /// FIFO put in a file's place gives nil instead of holding the process until something writes to it.
  package convenience init?(path: String) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, let size = Int(exactly: info.st_size)
    else { return nil }
    self.init(descriptor: descriptor, size: size)
  }

  /// The first `size` bytes of a file already open for reading (the descriptor stays the caller's); nil when
  /// `size` is 0 or they cannot be mapped.
  package init?(descriptor: Int32, size: Int) {
    guard size > 0 else { return nil }
    let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
    guard let address, address != MAP_FAILED else { return nil }
    bytes = UnsafeRawBufferPointer(start: address, count: size)
  }

  deinit {
    munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
  }
}
