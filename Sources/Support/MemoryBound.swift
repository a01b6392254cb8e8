#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The memory a hook or a rebuild may take for its data (the heap, and private mappings it writes to: a pack mapped
/// for reading is not counted), set as the process's soft `RLIMIT_DATA`. A damaged repository can make libgit2
/// allocate without end (a delta whose base is itself: about 24 GB before the kernel killed the process); with the
/// bound, its allocation fails, libgit2 reports it, and that repository is skipped with one line while the others
/// are journaled. A rebuild of a long history peaks far below it (BENCHMARKS.md, "Rebuild").
package enum MemoryBound {
  /// 4 GiB, or half the machine's memory when that is less, and never under 512 MiB.
  package static var bytes: UInt64 {
    let pages = UInt64(max(0, sysconf(Int32(_SC_PHYS_PAGES))))
    let pageSize = UInt64(max(0, sysconf(Int32(_SC_PAGESIZE))))
    let half = pages * pageSize / 2
    return max(512 << 20, min(4 << 30, half == 0 ? 4 << 30 : half))
  }

  /// Lowers the process's soft limit to `bytes`; a lower limit (`ulimit -d`) is kept. Children started afterwards
  /// (the detached narrator) inherit it.
  package static func apply() {
    var limit = rlimit()
    guard getrlimit(resourceData, &limit) == 0 else { return }
    let wanted = rlim_t(bytes)
    guard limit.rlim_cur == rlim_t.max || limit.rlim_cur > wanted else { return }
    limit.rlim_cur = limit.rlim_max == rlim_t.max ? wanted : min(wanted, limit.rlim_max)
    _ = setrlimit(resourceData, &limit)
  }

  #if canImport(Glibc)
    private static let resourceData = __rlimit_resource_t(RLIMIT_DATA.rawValue)
  #else
    private static let resourceData = RLIMIT_DATA
  #endif
}
