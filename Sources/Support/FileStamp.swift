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

/// What tells one version of a file from the next without reading it: inode, size, modification and change time.
/// An editor that saves by rename changes the inode; one that writes in place changes the size or the times (the
/// change time even when it puts the old modification time back).
package struct FileStamp: Equatable, Sendable {
  package let device: UInt64
  package let inode: UInt64
  package let size: Int64
  package let modifiedSeconds: Int64
  package let modifiedNanoseconds: Int64
  package let changedSeconds: Int64
  package let changedNanoseconds: Int64

  /// The modification time.
  package var modified: Date {
    Date(timeIntervalSince1970: TimeInterval(modifiedSeconds) + TimeInterval(modifiedNanoseconds) / 1e9)
  }

  /// The stamp of the file at `path` (symlinks followed), or nil when there is none.
  package init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    self.init(info)
  }

  package init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Glibc)
      modifiedSeconds = Int64(info.st_mtim.tv_sec)
      modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
      changedSeconds = Int64(info.st_ctim.tv_sec)
      changedNanoseconds = Int64(info.st_ctim.tv_nsec)
    #else
      modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
      modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
      changedSeconds = Int64(info.st_ctimespec.tv_sec)
      changedNanoseconds = Int64(info.st_ctimespec.tv_nsec)
    #endif
  }
}
