#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `stat` says of one path, as far as it tells one version of the path from the next: the inode, the size,
/// and the modification and change times. Git and libgit2 write a ref, HEAD, packed-refs or a config file to a
/// lock file and rename it over the old one, which gives the path a new inode and changes both times of its
/// folder; a tool that writes in place changes the file's own times (and `ctime` cannot be set back).
package struct PathStamp: Equatable, Sendable {
  package enum Kind: Equatable, Sendable {
    /// Nothing at the path.
    case absent
    /// Only which file or folder it is (device and inode): a working tree or `.git` folder whose times are too
    /// recent to tell anything (see `guarding`).
    case node
    /// Inode, size and both times.
    case full
    /// A folder's device, inode, size and both times, of which only the device and inode must hold: the times
    /// change with every entry added to the folder, removed or renamed in it, so while they hold, a name that was
    /// free in it is free still and needs no look of its own (see `StampedRead`). A working tree's or `.git`
    /// folder's times move with every index write or new file; when they have moved, those names are looked at
    /// one by one.
    case guarding
  }

  package var kind: Kind
  /// For an absent stamp: whether the name itself is free, nothing there at all (`lstat` finds nothing). A symlink
  /// to nothing, or a path that could not be looked at, is absent without its name being free: what it points at
  /// may appear elsewhere, leaving the times of its folder as they were.
  package var isNameFree = false
  package var isFolder = false
  package var device: UInt64 = 0
  package var inode: UInt64 = 0
  package var size: Int64 = 0
  package var modified = Timestamp()
  package var changed = Timestamp()

  package struct Timestamp: Equatable, Sendable {
    package var seconds: Int64 = 0
    package var nanoseconds: Int64 = 0
  }

  /// The stamp of `path` now (symlinks followed), of the given kind when something is there.
  package init(path: String, kind: Kind) {
    var info = stat()
    guard stat(path, &info) == 0 else {
      let isNameFree = errno == ENOENT && lstat(path, &info) != 0 && errno == ENOENT
      self = .absent
      self.isNameFree = isNameFree
      return
    }
    self.init(info, kind: kind)
  }

  /// The stamp of the folder open as `descriptor`: what `init(path:kind:)` gives for the path it was opened by, with
  /// no lookup of that path again.
  init(openFolder descriptor: Int32, kind: Kind) {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      self = .absent
      return
    }
    self.init(info, kind: kind)
  }

  /// The stamp of the path whose bytes (without a terminating zero) are `path`, as `init(path:kind:)` gives it,
  /// without making a `String` of it: what the hook does for each stamped path of every repository.
  /// A relative `path` is taken from the open folder `folder` (`AT_FDCWD`: the current directory): the kernel
  /// then walks only the path's last components, where an absolute path costs it a lookup per component.
  init(pathBytes path: Slice<UnsafeRawBufferPointer>, in folder: Int32 = AT_FDCWD, kind: Kind) {
    var info = stat()
    let found = withUnsafeTemporaryAllocation(of: CChar.self, capacity: path.count + 1) { buffer in
      // One copy of the bytes, not a loop over them: a hook with a hundred repositories stamps 1,500 paths.
      let bytes = UnsafeRawBufferPointer(rebasing: path)
      if let source = bytes.baseAddress { memcpy(buffer.baseAddress!, source, bytes.count) }
      buffer[path.count] = 0
      return fstatat(folder, buffer.baseAddress!, &info, 0) == 0
    }
    guard found else {
      self = .absent
      return
    }
    self.init(info, kind: kind)
  }

  private init(_ info: stat, kind: Kind) {
    self.kind = kind
    isFolder = (info.st_mode & S_IFMT) == S_IFDIR
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    guard kind == .full || kind == .guarding else { return }
    size = Int64(info.st_size)
    #if canImport(Glibc)
      modified = Timestamp(seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec))
      changed = Timestamp(seconds: Int64(info.st_ctim.tv_sec), nanoseconds: Int64(info.st_ctim.tv_nsec))
    #else
      modified = Timestamp(seconds: Int64(info.st_mtimespec.tv_sec), nanoseconds: Int64(info.st_mtimespec.tv_nsec))
      changed = Timestamp(seconds: Int64(info.st_ctimespec.tv_sec), nanoseconds: Int64(info.st_ctimespec.tv_nsec))
    #endif
  }

  init(kind: Kind, isFolder: Bool, device: UInt64, inode: UInt64, size: Int64, modified: Timestamp, changed: Timestamp)
  {
    self.kind = kind
    self.isFolder = isFolder
    self.device = device
    self.inode = inode
    self.size = size
    self.modified = modified
    self.changed = changed
  }

  /// The stamp as `.node` would have taken it: which file or folder, nothing of its times.
  var node: PathStamp {
    kind == .absent
      ? self
      : PathStamp(
        kind: .node, isFolder: isFolder, device: device, inode: inode, size: 0, modified: Timestamp(),
        changed: Timestamp())
  }

  static let absent = PathStamp(
    kind: .absent, isFolder: false, device: 0, inode: 0, size: 0, modified: Timestamp(), changed: Timestamp())

  /// Whether a change made after `now` could leave this stamp as it is. The kernel stamps files from a clock
  /// that lags the real one by up to a tick (at most 10 ms), and some file systems keep whole seconds (or two,
  /// FAT): a path changed within that much of the moment it was stamped may change again and keep its times,
  /// as git's index does with "racily clean" entries. Times without nanoseconds are taken to be that coarse.
  package func isRacy(now: Timestamp) -> Bool {
    guard kind == .full || kind == .guarding else { return false }
    let isCoarse = modified.nanoseconds == 0 && changed.nanoseconds == 0
    let margin: Int64 = isCoarse ? 3_000_000_000 : 100_000_000
    let latest = max(modified.total, changed.total)
    return latest > now.total - margin
  }
}

extension PathStamp.Timestamp {
  /// Nanoseconds since 1970.
  var total: Int64 { seconds &* 1_000_000_000 &+ nanoseconds }

  /// The real-time clock now.
  package static var now: PathStamp.Timestamp {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return PathStamp.Timestamp(seconds: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec))
  }
}
