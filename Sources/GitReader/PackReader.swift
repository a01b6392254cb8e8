import CLibdeflate
import CLibgit2
import Support

/// Reads objects straight out of a repository's packs, for one thread.
///
/// libgit2 guards each pack with a lock that every object read takes several times (the index search, the
/// window, the delta bases); two diff workers spent a fifth of a rebuild waking each other. Each worker has a
/// reader of its own over the shared, read-only `PackedObjects`, with its own decompressor and buffers; the one
/// lock left is the delta bases' (`DeltaBases`), taken for each step of a delta chain, held for a lookup.
///
/// It reads what the pack format defines: whole objects and both kinds of delta. What it does not read (a loose
/// object, one in an alternate's packs, a pack it cannot read, an object over `largestObject`) is `.elsewhere`, and
/// the caller asks libgit2. An entry it finds damaged (an index offset outside the pack, a header, zlib stream or
/// delta that does not hold, a delta chain that loops) is `.damaged`, and libgit2 is not asked: it dies on some of
/// these instead of failing. Like libgit2 with strict
/// verification off, it checks no object's hash: damage that still parses (a header byte that names another
/// kind) gives that object, which the caller then refuses as the wrong kind.
final class PackReader {
  let objects: PackedObjects
  /// libdeflate's, made on the first entry read; one per reader, since a decompressor is not for two threads at
  /// once. Each entry is one call: its inflated size is in its header, its compressed bytes are bounded.
  private var decompressor: OpaquePointer?
  private var bases: DeltaBases { objects.bases }
  /// Delta data inflated before it is applied, kept between objects.
  private var deltaBuffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
  /// An entry's header and its compressed bytes, for a pack read entry by entry (see `PackData`).
  private var headerBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 16)
  private var entryBuffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)

  /// The largest object read here; a larger one is left to libgit2. No source file a person writes comes near
  /// it, and a declared size is only a claim until inflated.
  static let largestObject = 256 << 20
  /// Deltas stacked on one base at most. git's deepest chains are a few thousand; a longer chain is a loop of
  /// references to each other's ids, which only a damaged pack has.
  static let deepestChain = 10_000

  /// Buffers that grew past this for a large object are let go once it is read.
  static let largestKeptBuffer = 1 << 20
  /// What one delta chain may make in all: a thousand small deltas each copying 16 MiB would otherwise keep a
  /// reader copying for minutes.
  static let largestChainOutput = 4 * largestObject

  init(objects: PackedObjects) {
    self.objects = objects
  }

  deinit {
    libdeflate_free_decompressor(decompressor)
    deltaBuffer.deallocate()
    headerBuffer.deallocate()
    entryBuffer.deallocate()
  }

  /// `id`'s kind and bytes from the packs (see `PackRead`).
  func read(_ id: ObjectID) -> PackRead {
    guard let (pack, found) = objects.location(of: id) else { return .elsewhere }
    guard let offset = found else { return .damaged("its index entry points outside its pack") }
    defer {
      if entryBuffer.count > Self.largestKeptBuffer { Self.release(&entryBuffer) }
      if deltaBuffer.count > Self.largestKeptBuffer { Self.release(&deltaBuffer) }
    }
    return object(inPack: pack, at: offset)
  }

  private static func release(_ buffer: inout UnsafeMutableRawBufferPointer) {
    buffer.deallocate()
    buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
  }

  /// The object that starts at `offset` of pack `number`: its entry's delta chain followed down to a whole
  /// object (or a cached base), then each delta applied on the way back up.
  private func object(inPack number: Int, at start: Int) -> PackRead {
    var chain: [(pack: Int, offset: Int, header: EntryHeader)] = []
    var pack = number
    var offset = start
    var base: RawObject
    while true {
      if let cached = bases.object(pack: pack, offset: offset) {
        base = cached
        break
      }
      guard chain.count < Self.deepestChain else {
        return .damaged("its deltas refer to each other in a loop (a chain deeper than \(Self.deepestChain))")
      }
      guard let header = entryHeader(in: objects.packs[pack], at: offset) else {
        return .damaged("its entry's header does not hold")
      }
      guard header.size <= Self.largestObject else { return .elsewhere }
      if let kind = header.kind {
        guard let whole = inflated(from: objects.packs[pack], entry: header) else {
          return .damaged("its compressed data does not hold")
        }
        base = RawObject(kind: kind, storage: whole, count: header.size)
        bases.store(base, pack: pack, offset: offset)
        break
      }
      chain.append((pack, offset, header))
      switch header.base {
      case .offset(let baseOffset):
        offset = baseOffset
      case .id(let baseID):
        // A base in no pack may be a loose object, which libgit2 reads.
        guard let (basePack, found) = objects.location(of: baseID) else { return .elsewhere }
        guard let baseOffset = found else { return .damaged("its delta base's index entry points outside its pack") }
        (pack, offset) = (basePack, baseOffset)
      case nil:
        return .damaged("its entry's header does not hold")
      }
    }
    // Deltas are applied from the one nearest the whole object up to the entry asked for, each result kept as a
    // base for the next reads.
    var made = 0
    for (entryPack, entryOffset, header) in chain.reversed() {
      var isTooLarge = false
      guard let applied = applyDelta(of: header, inPack: entryPack, to: base, isTooLarge: &isTooLarge) else {
        return isTooLarge ? .elsewhere : .damaged("a delta of it does not apply to its base")
      }
      made += applied.bytes.count
      guard made <= Self.largestChainOutput else { return .elsewhere }
      base = applied
      bases.store(base, pack: entryPack, offset: entryOffset)
    }
    return .object(base)
  }

  // MARK: Entries

  private struct EntryHeader {
    /// The object's kind for a whole object, nil for a delta.
    let kind: ObjectKind?
    /// The inflated size: the object's, or the delta's.
    let size: Int
    /// Where the entry starts in its pack, and how long its header is: the compressed bytes follow.
    let offset: Int
    let length: Int
    let base: DeltaBase?
  }

  private enum DeltaBase {
    case offset(Int)
    case id(ObjectID)
  }

  /// Reads an entry's header: a type and a size in 7-bit groups, then for a delta where its base is (a distance
  /// back in the same pack, or an id).
  private func entryHeader(in pack: Pack, at start: Int) -> EntryHeader? {
    guard let bytes = pack.data.entry(at: start, limit: headerBuffer.count, buffer: &headerBuffer) else { return nil }
    var position = 0
    guard position < bytes.count else { return nil }
    var byte = bytes[position]
    position += 1
    let type = Int(byte >> 4) & 7
    var size = Int(byte & 15)
    var shift = 4
    while byte & 0x80 != 0 {
      guard position < bytes.count, shift <= 56 else { return nil }
      byte = bytes[position]
      position += 1
      size |= Int(byte & 0x7f) << shift
      shift += 7
    }
    switch type {
    case 1, 2, 3, 4:
      return EntryHeader(kind: ObjectKind(rawValue: type), size: size, offset: start, length: position, base: nil)
    case 6:
      // The distance back to the base, big-endian 7-bit groups, each continuation adding one (so that no two
      // encodings give the same number).
      guard position < bytes.count else { return nil }
      byte = bytes[position]
      position += 1
      var distance = Int(byte & 0x7f)
      while byte & 0x80 != 0 {
        guard position < bytes.count, distance < (Int.max >> 8) else { return nil }
        byte = bytes[position]
        position += 1
        distance = ((distance + 1) << 7) | Int(byte & 0x7f)
      }
      // A base lies before its delta, so a chain of these always ends.
      guard distance > 0, distance < start else { return nil }
      return EntryHeader(kind: nil, size: size, offset: start, length: position, base: .offset(start - distance))
    case 7:
      guard position + 20 <= bytes.count else { return nil }
      var raw = git_oid()
      withUnsafeMutableBytes(of: &raw.id) {
        $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + 20)]))
      }
      return EntryHeader(kind: nil, size: size, offset: start, length: position + 20, base: .id(ObjectID(raw)))
    default:
      return nil
    }
  }

  /// Inflates exactly `entry.size` bytes from the entry's zlib stream into new storage (one byte longer, so that an
  /// empty object still has some). Nil unless the stream ends exactly there.
  private func inflated(from pack: Pack, entry: EntryHeader) -> UnsafeMutableRawPointer? {
    let storage = UnsafeMutableRawPointer.allocate(byteCount: entry.size + 1, alignment: 16)
    guard inflate(from: pack, entry: entry, into: UnsafeMutableRawBufferPointer(start: storage, count: entry.size + 1))
    else {
      storage.deallocate()
      return nil
    }
    return storage
  }

  private func inflate(from pack: Pack, entry: EntryHeader, into output: UnsafeMutableRawBufferPointer) -> Bool {
    // No zlib stream of `entry.size` bytes that git writes is longer than this: a pack read by entry is not read
    // beyond it, whatever lies before the next entry.
    let longest = entry.length + Int(compressBound(UInt(entry.size))) + 64
    guard entry.size <= output.count,
      let bytes = pack.data.entry(at: entry.offset, limit: longest, buffer: &entryBuffer),
      bytes.count > entry.length
    else { return false }
    if decompressor == nil { decompressor = libdeflate_alloc_decompressor() }
    guard let decompressor else { return false }
    // With room for exactly `entry.size` bytes and no place to report fewer, libdeflate succeeds only when the
    // stream makes exactly that many (fewer: SHORT_OUTPUT, more: INSUFFICIENT_SPACE), its Adler-32 matches, and it
    // ends within `bytes` (it reads nothing past them, and fails a stream that would need more).
    let result = libdeflate_zlib_decompress(
      decompressor, bytes.baseAddress! + entry.length, bytes.count - entry.length, output.baseAddress!, entry.size,
      nil)
    return result == LIBDEFLATE_SUCCESS
  }

  // MARK: Deltas

  /// Applies the delta of entry `header` to `base`: the base's size and the result's, each in 7-bit groups, then
  /// instructions that copy a range of the base or insert bytes of the delta's own. Nil unless every range lies
  /// inside the base and the instructions make exactly the result's size; `isTooLarge` set when the result would be
  /// larger than `largestObject`.
  private func applyDelta(
    of header: EntryHeader, inPack number: Int, to base: RawObject, isTooLarge: inout Bool
  ) -> RawObject? {
    if deltaBuffer.count < header.size + 1 {
      deltaBuffer.deallocate()
      deltaBuffer = .allocate(byteCount: max(header.size + 1, 64 << 10), alignment: 16)
    }
    guard inflate(from: objects.packs[number], entry: header, into: deltaBuffer) else { return nil }
    let delta = UnsafeRawBufferPointer(rebasing: deltaBuffer[..<header.size])
    var position = 0
    guard let baseSize = Self.varint(delta, &position), baseSize == base.bytes.count,
      let resultSize = Self.varint(delta, &position)
    else { return nil }
    guard resultSize <= Self.largestObject else {
      isTooLarge = true
      return nil
    }
    let storage = UnsafeMutableRawPointer.allocate(byteCount: resultSize + 1, alignment: 16)
    var written = 0
    var isValid = true
    while position < delta.count {
      let instruction = delta[position]
      position += 1
      if instruction & 0x80 != 0 {
        // Copy: which of four offset bytes and three size bytes follow is told by the instruction's low bits.
        var copyOffset = 0
        var copySize = 0
        for bit in 0..<7 where instruction & (1 << bit) != 0 {
          guard position < delta.count else {
            isValid = false
            break
          }
          let value = Int(delta[position])
          position += 1
          if bit < 4 { copyOffset |= value << (8 * bit) } else { copySize |= value << (8 * (bit - 4)) }
        }
        if copySize == 0 { copySize = 0x10000 }
        guard isValid, copyOffset + copySize <= base.bytes.count, written + copySize <= resultSize else {
          isValid = false
          break
        }
        (storage + written).copyMemory(from: base.bytes.baseAddress! + copyOffset, byteCount: copySize)
        written += copySize
      } else if instruction != 0 {
        // Insert the next `instruction` bytes of the delta.
        let count = Int(instruction)
        guard position + count <= delta.count, written + count <= resultSize else {
          isValid = false
          break
        }
        (storage + written).copyMemory(from: delta.baseAddress! + position, byteCount: count)
        written += count
        position += count
      } else {
        isValid = false
        break
      }
    }
    guard isValid, written == resultSize else {
      storage.deallocate()
      return nil
    }
    return RawObject(kind: base.kind, storage: storage, count: resultSize)
  }

  /// A size in a delta's header: 7-bit groups, least significant first.
  private static func varint(_ bytes: UnsafeRawBufferPointer, _ position: inout Int) -> Int? {
    var value = 0
    var shift = 0
    while position < bytes.count, shift <= 56 {
      let byte = bytes[position]
      position += 1
      value |= Int(byte & 0x7f) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
    }
    return nil
  }
}

/// The objects the readers of one `PackedObjects` made most recently, by where they start in their pack: the
/// bases the next deltas are applied to. A rebuild reads each file's versions newest first, and git stores older
/// versions as deltas of newer ones, so a version just read is usually the base of the next. The diff workers read
/// neighbouring stretches of history, so one cache serves both. Up to about `byteLimit` in all (each generation
/// below can pass its half by one object of at most `largestKept`). A lock guards it, held only to look an object
/// up or keep one.
final class DeltaBases: Sendable {
  /// The cache is most of what a rebuild holds beyond its records. On libgit2's history, larger limits bought no
  /// time and raised the peak memory, which BENCHMARKS.md ("Rebuild") gives for this one.
  static let byteLimit = 8 << 20
  /// Larger objects are not kept: one would crowd out a thousand small ones.
  static let largestKept = 2 << 20

  /// Two generations instead of a least-recently-used order: objects are stored into the young one, an old one
  /// found again moves back into it, and when the young one holds half the limit it becomes the old one and the
  /// old one is let go. What was used in the last half of the limit's worth of stores is kept, as with an exact
  /// order, but the lock is held for a dictionary lookup only, never for a sort, so a thread pre-empted while
  /// holding it (both cores busy with other work) keeps the other waiting for microseconds. Objects let go are
  /// released after the lock is given back.
  private struct Generations {
    var young: [Int: RawObject] = [:]
    var old: [Int: RawObject] = [:]
    var youngBytes = 0
  }
  private let generations = Locked(Generations())

  private static func key(pack: Int, offset: Int) -> Int { pack << 48 | offset }

  func object(pack: Int, offset: Int) -> RawObject? {
    let key = Self.key(pack: pack, offset: offset)
    return generations.withLock { kept in
      if let object = kept.young[key] { return object }
      guard let object = kept.old.removeValue(forKey: key) else { return nil }
      kept.young[key] = object
      kept.youngBytes += object.bytes.count
      return object
    }
  }

  func store(_ object: RawObject, pack: Int, offset: Int) {
    let size = object.bytes.count
    guard size <= Self.largestKept else { return }
    let key = Self.key(pack: pack, offset: offset)
    var letGo: [Int: RawObject] = [:]
    generations.withLock { kept in
      if let replaced = kept.young.updateValue(object, forKey: key) { kept.youngBytes -= replaced.bytes.count }
      kept.youngBytes += size
      if kept.youngBytes > Self.byteLimit / 2 {
        letGo = kept.old
        kept.old = kept.young
        kept.young = [:]
        kept.youngBytes = 0
      }
    }
    // The old generation's objects, released here, outside the lock.
    letGo.removeAll()
  }
}
