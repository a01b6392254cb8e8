import CLibgit2
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One pack of a repository, mapped: its index (`pack-*.idx`, version 2) and its data (`pack-*.pack`), as git's
/// pack format documentation lays them out. Finds an object's offset; `PackReader` reads what is there.
///
/// Every number read from either file is checked against the file's size before it is used: a damaged or
/// hostile pack makes a lookup fail (and the caller ask libgit2), never a read outside the mapping.
struct Pack: @unchecked Sendable {
  let index: MappedFile
  let data: PackData
  /// Where the object data ends: the pack's last 20 bytes are its checksum.
  var dataEnd: Int { data.end }

  private static let fanoutStart = 8
  private static let namesStart = fanoutStart + 256 * 4
  private let offsetsStart: Int
  private let largeOffsetsStart: Int
  private let largeOffsetCount: Int

  /// Nil for anything but a version 2 index over a version 2 or 3 pack of the same objects. A pack of up to
  /// `mappedLimit` bytes is mapped whole (see `PackData`).
  init?(indexPath: String, dataPath: String, mappedLimit: Int = PackData.mappedLimit) {
    guard let index = MappedFile(path: indexPath) else { return nil }
    let indexBytes = index.bytes
    // Index: "\377tOc", version 2, 256 cumulative counts, then per object its id, CRC and offset, then the large
    // offsets, then the pack's checksum and the index's own.
    guard indexBytes.count >= Self.namesStart + 40, Self.uint32(indexBytes, at: 0) == 0xff74_4f63,
      Self.uint32(indexBytes, at: 4) == 2
    else { return nil }
    var previous: UInt32 = 0
    for slot in 0..<256 {
      let cumulative = Self.uint32(indexBytes, at: Self.fanoutStart + slot * 4)
      guard cumulative >= previous else { return nil }
      previous = cumulative
    }
    let count = Int(previous)
    let offsetsStart = Self.namesStart + count * 24
    let largeOffsetsStart = offsetsStart + count * 4
    let largeBytes = indexBytes.count - 40 - largeOffsetsStart
    guard largeBytes >= 0, largeBytes % 8 == 0 else { return nil }
    self.index = index
    self.offsetsStart = offsetsStart
    self.largeOffsetsStart = largeOffsetsStart
    self.largeOffsetCount = largeBytes / 8
    // Pack: "PACK", version, object count, the objects, the checksum the index names too.
    let checksum = UnsafeRawBufferPointer(rebasing: indexBytes[(indexBytes.count - 40)..<(indexBytes.count - 20)])
    guard
      let data = PackData(
        path: dataPath, count: previous, checksum: checksum, mappedLimit: mappedLimit,
        entryStarts: { end in
          // Where each entry ends, for a pack read entry by entry: where the next begins.
          var starts = (0..<count).map { position in
            Self.offset(
              at: position, in: indexBytes, offsetsStart: offsetsStart, largeOffsetsStart: largeOffsetsStart,
              largeOffsetCount: largeBytes / 8, dataEnd: end) ?? end
          }
          starts.append(end)
          starts.sort()
          return starts
        })
    else { return nil }
    self.data = data
  }

  /// Where `id` starts in the data: nil when the pack does not hold it, `.some(nil)` when its index entry points
  /// outside the data (a damaged index).
  func offset(of id: ObjectID) -> Int?? {
    let bytes = index.bytes
    return withUnsafeBytes(of: id.raw.id) { wanted -> Int?? in
      let first = Int(wanted[0])
      var low = first == 0 ? 0 : Int(Self.uint32(bytes, at: Self.fanoutStart + (first - 1) * 4))
      var high = Int(Self.uint32(bytes, at: Self.fanoutStart + first * 4))
      while low < high {
        let middle = (low + high) / 2
        let order = memcmp(bytes.baseAddress! + Self.namesStart + middle * 20, wanted.baseAddress!, 20)
        if order == 0 { return .some(offset(at: middle)) }
        if order < 0 { low = middle + 1 } else { high = middle }
      }
      return nil
    }
  }

  /// The data offset of the index's `position`th object.
  private func offset(at position: Int) -> Int? {
    Self.offset(
      at: position, in: index.bytes, offsetsStart: offsetsStart, largeOffsetsStart: largeOffsetsStart,
      largeOffsetCount: largeOffsetCount, dataEnd: dataEnd)
  }

  private static func offset(
    at position: Int, in index: UnsafeRawBufferPointer, offsetsStart: Int, largeOffsetsStart: Int,
    largeOffsetCount: Int, dataEnd: Int
  ) -> Int? {
    let small = uint32(index, at: offsetsStart + position * 4)
    var offset = Int(small)
    if small & 0x8000_0000 != 0 {
      let large = Int(small & 0x7fff_ffff)
      guard large < largeOffsetCount else { return nil }
      let value = UInt64(bigEndian: index.loadUnaligned(fromByteOffset: largeOffsetsStart + large * 8, as: UInt64.self))
      guard let exact = Int(exactly: value) else { return nil }
      offset = exact
    }
    // After the 12-byte header, before the checksum.
    return offset >= 12 && offset < dataEnd ? offset : nil
  }

  static func uint32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }
}

/// A pack's object data. A small pack is mapped whole: its pages stay mapped once read and count as the
/// process's memory, at most `mappedLimit` of them for each pack (a repository's packs are few: git repacks them). A larger one is read an entry at a time (`pread`), through
/// the kernel's page cache, so that a rebuild of a long history holds none of it: mapped, each read also maps
/// the 64 KiB around it, and a large pack took more memory than libgit2 reading it.
final class PackData: @unchecked Sendable {
  static let mappedLimit = 32 << 20

  /// Where the object data ends (the checksum follows).
  let end: Int
  private let mapping: MappedFile?
  private let descriptor: Int32
  /// For a pack read by entry: where each entry starts, sorted, then `end`.
  private let entryStarts: [Int]

  /// Nil unless the file is a version 2 or 3 pack of `count` objects whose checksum is `checksum`.
  /// `entryStarts` gives, from the data's end, where the entries start (made only for a pack read by entry).
  init?(
    path: String, count: UInt32, checksum: UnsafeRawBufferPointer, mappedLimit: Int, entryStarts: (Int) -> [Int]
  ) {
    // Without waiting, and only a regular file: a FIFO in a pack's place would otherwise hold the rebuild.
    descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, let size = Int(exactly: info.st_size),
      size >= 32
    else {
      close(descriptor)
      return nil
    }
    var header = [UInt8](repeating: 0, count: 12)
    var trailer = [UInt8](repeating: 0, count: 20)
    guard pread(descriptor, &header, 12, 0) == 12, pread(descriptor, &trailer, 20, off_t(size - 20)) == 20,
      header.withUnsafeBytes({ bytes in
        Pack.uint32(bytes, at: 0) == 0x5041_434b && [2, 3].contains(Pack.uint32(bytes, at: 4))
          && Pack.uint32(bytes, at: 8) == count
      }),
      trailer.withUnsafeBytes({ memcmp($0.baseAddress!, checksum.baseAddress!, 20) == 0 })
    else {
      close(descriptor)
      return nil
    }
    end = size - 20
    if size <= mappedLimit {
      guard let mapping = MappedFile(descriptor: descriptor, size: size) else {
        close(descriptor)
        return nil
      }
      self.mapping = mapping
      self.entryStarts = []
    } else {
      mapping = nil
      self.entryStarts = entryStarts(end)
    }
  }

  deinit { close(descriptor) }

  /// The bytes from `offset` to the end of the entry there (or of the data, for a mapped pack), at most `limit`:
  /// a slice of the mapping, or read into `buffer`. Nil when they cannot be read.
  func entry(at offset: Int, limit: Int, buffer: inout UnsafeMutableRawBufferPointer) -> UnsafeRawBufferPointer? {
    guard offset >= 12, offset < end else { return nil }
    if let mapping {
      return UnsafeRawBufferPointer(rebasing: mapping.bytes[offset..<(limit >= end - offset ? end : offset + limit)])
    }
    var low = 0
    var high = entryStarts.count
    while low < high {
      let middle = (low + high) / 2
      if entryStarts[middle] <= offset { low = middle + 1 } else { high = middle }
    }
    guard low < entryStarts.count else { return nil }
    let count = min(entryStarts[low] - offset, limit)
    if buffer.count < count {
      buffer.deallocate()
      buffer = .allocate(byteCount: max(count, 64 << 10), alignment: 16)
    }
    guard pread(descriptor, buffer.baseAddress, count, off_t(offset)) == count else { return nil }
    return UnsafeRawBufferPointer(rebasing: buffer[..<count])
  }
}

/// The packs of a repository's object folder, opened once for a run of diffs and read by any number of
/// `PackReader`s at once (nothing in it changes after it is made).
final class PackedObjects: Sendable {
  let packs: [Pack]
  /// The delta bases its readers share.
  let bases = DeltaBases()

  /// The packs in `objectsFolder/pack` that `Pack` can read; packs it cannot are left to libgit2.
  init(objectsFolder: String, mappedLimit: Int = PackData.mappedLimit) {
    let folder = objectsFolder + "/pack"
    packs = FolderListing.names(in: folder, withPrefix: "pack-").sorted().compactMap { name in
      guard name.hasSuffix(".idx") else { return nil }
      let stem = folder + "/" + name.dropLast(4)
      return Pack(indexPath: stem + ".idx", dataPath: stem + ".pack", mappedLimit: mappedLimit)
    }
  }

  /// The pack holding `id` and where, searching every pack; a nil offset when its index entry points outside the
  /// pack.
  func location(of id: ObjectID) -> (pack: Int, offset: Int?)? {
    for (number, pack) in packs.enumerated() {
      if let offset = pack.offset(of: id) { return (number, offset) }
    }
    return nil
  }
}
