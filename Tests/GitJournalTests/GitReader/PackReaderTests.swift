import CLibgit2
import Foundation
import Testing

@testable import GitReader
@testable import Support

/// The diff workers read trees and blobs out of the packs themselves (`PackReader`): every object must read as
/// git stores it, whatever kind of delta holds it, and a pack that is damaged or hostile must give nothing
/// rather than anything else, without a crash, a hang or a huge allocation.
@Suite struct PackReaderTests {
  /// A history of a few files edited again and again (so that most versions are deltas), with a binary file,
  /// deletions, a symbolic link, an executable and a folder, packed by git.
  private static func editedHistory() throws -> TemporaryRepository {
    let repository = try TemporaryRepository()
    let script = EditedFiles.script(commits: 60, seed: 0x7061_636B, initialLines: 40) { index, edited in
      guard index % 17 == 16, edited.files.removeValue(forKey: "e.txt") != nil else { return [] }
      return [.delete(path: "e.txt")]
    }
    try repository.importHistory(script)
    let binary: [UInt8] = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 5)) }
    try repository.write(bytes: binary, to: "image.bin")
    try repository.write("#!/bin/sh\necho hi\n", to: "run.sh")
    try FileManager.default.createSymbolicLink(atPath: repository.path + "/link", withDestinationPath: "a.txt")
    try repository.git("add", "-A")
    try repository.git("update-index", "--chmod=+x", "run.sh")
    try repository.git(["commit", "-q", "-m", "Binary, link, script"])
    try repository.write(bytes: binary.reversed(), to: "image.bin")
    try repository.commit(message: "Binary edited", date: "2026-03-20T10:00:00Z")
    return repository
  }

  /// Every object git lists, with its kind and bytes, read by `git cat-file --batch`.
  private static func objects(of repository: TemporaryRepository) throws -> [(id: ObjectID, kind: String, bytes: Data)]
  {
    let ids = try repository.git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)")
    let result = try repository.gitResult(["cat-file", "--batch"], input: Data(ids.utf8))
    let output = result.outputData
    var objects: [(id: ObjectID, kind: String, bytes: Data)] = []
    var position = output.startIndex
    while position < output.endIndex {
      let lineEnd = try #require(output[position...].firstIndex(of: 10))
      let fields = String(decoding: output[position..<lineEnd], as: UTF8.self).split(separator: " ")
      let size = try #require(Int(fields[2]))
      let start = lineEnd + 1
      objects.append((try #require(ObjectID(hex: fields[0])), String(fields[1]), output[start..<(start + size)]))
      position = start + size + 1
    }
    return objects
  }

  /// The kind of each entry `git verify-pack` lists, read from the pack's own header byte: 6 and 7 are the two
  /// kinds of delta.
  private static func entryTypes(of repository: TemporaryRepository) throws -> [Int] {
    let folder = repository.path + "/.git/objects/pack"
    let pack = try #require(FolderListing.names(in: folder, withPrefix: "pack-").first { $0.hasSuffix(".pack") })
    let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + pack))
    let listing = try repository.git("verify-pack", "-v", folder + "/" + pack)
    return listing.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 5, fields[0].count == 40, let offset = Int(fields[4]) else { return nil }
      return Int(bytes[offset] >> 4) & 7
    }
  }

  /// A reader of the repository's packs: mapped whole, or (`mappedLimit` 0) read entry by entry as a large pack is.
  private static func reader(for repository: TemporaryRepository, mappedLimit: Int = PackData.mappedLimit) -> PackReader
  {
    PackReader(objects: PackedObjects(objectsFolder: repository.path + "/.git/objects", mappedLimit: mappedLimit))
  }

  private static func expectEveryObjectReads(in repository: TemporaryRepository) throws {
    let objects = try Self.objects(of: repository)
    #expect(objects.count > 150)
    for mappedLimit in [PackData.mappedLimit, 0] {
      let reader = Self.reader(for: repository, mappedLimit: mappedLimit)
      for object in objects {
        let read = try #require(reader.read(object.id).found, "\(object.id) (\(object.kind)) is not read from the pack")
        #expect(read.kind.name == object.kind, "\(object.id)")
        #expect(Data(read.bytes) == object.bytes, "\(object.id) (\(object.kind)) reads other bytes, \(mappedLimit)")
      }
    }
  }

  @Test func everyObjectOfAPackWithOffsetDeltasReadsAsGitStoresIt() throws {
    let repository = try Self.editedHistory()
    try repository.git("repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50")
    let types = try Self.entryTypes(of: repository)
    #expect(types.filter { $0 == 6 }.count > 50, "the pack should hold offset deltas: \(types)")
    try Self.expectEveryObjectReads(in: repository)
  }

  @Test func everyObjectOfAPackWithReferenceDeltasReadsAsGitStoresIt() throws {
    let repository = try Self.editedHistory()
    try repository.git("-c", "repack.useDeltaBaseOffset=false", "repack", "-a", "-d", "-f", "-q", "--depth=50")
    let types = try Self.entryTypes(of: repository)
    #expect(types.filter { $0 == 7 }.count > 50, "the pack should hold reference deltas: \(types)")
    #expect(!types.contains(6))
    try Self.expectEveryObjectReads(in: repository)
  }

  /// git's compression levels make stored blocks (0), fixed and dynamic Huffman codes (1 to 9): each inflates
  /// into the same objects. `-F` recompresses every object, not only the deltas.
  @Test func everyObjectReadsAtEachCompressionLevel() throws {
    let repository = try Self.editedHistory()
    for level in [0, 1, 9] {
      try repository.git("-c", "pack.compression=\(level)", "repack", "-a", "-d", "-F", "-q", "--depth=50")
      try Self.expectEveryObjectReads(in: repository)
    }
  }

  /// Objects in two packs and loose ones: the reader finds what any pack holds and leaves the rest to libgit2,
  /// through which the repository still reads them.
  @Test func looseObjectsAreLeftToLibgit2() throws {
    let repository = try Self.editedHistory()
    try repository.git("repack", "-a", "-d", "-q")
    try repository.commit(
      file: "a.txt", content: "packed apart\n", message: "Second pack", date: "2026-03-21T10:00:00Z")
    try repository.git("repack", "-d", "-q")
    try repository.commit(file: "a.txt", content: "loose\n", message: "Loose", date: "2026-03-22T10:00:00Z")
    let loose = try #require(
      ObjectID(hex: try repository.git("rev-parse", "HEAD:a.txt").trimmingCharacters(in: .newlines)))
    let inSecondPack = try #require(
      ObjectID(hex: try repository.git("rev-parse", "HEAD~1:a.txt").trimmingCharacters(in: .newlines)))
    let packs = FolderListing.names(in: repository.path + "/.git/objects/pack", withPrefix: "pack-")
    #expect(packs.filter { $0.hasSuffix(".pack") }.count == 2)

    let reader = Self.reader(for: repository, mappedLimit: 0)
    #expect(reader.read(loose).found == nil)
    #expect(reader.read(inSecondPack).found.map { Data($0.bytes) } == Data("packed apart\n".utf8))
    let opened = try Repository.open(at: repository.path)
    opened.readObjects(through: reader)
    let blob = try opened.blob(loose)
    #expect(withExtendedLifetime(blob) { String(decoding: blob.bytes, as: UTF8.self) } == "loose\n")
    #expect(throws: GitError.self) { try opened.tree(loose) }
  }

  /// Every commit's line counts are the same whether its trees and blobs come from the packs or from libgit2.
  @Test func diffsReadFromThePacksCountAsLibgit2s() throws {
    let repository = try Self.editedHistory()
    try repository.git("repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50")
    let ids = try repository.git("rev-list", "HEAD").split(separator: "\n").map { try #require(ObjectID(hex: $0)) }
    let plain = try Repository.open(at: repository.path)
    let packed = try Repository.open(at: repository.path)
    packed.readObjects(through: Self.reader(for: repository))
    packed.recentObjects = RecentObjects()
    for id in ids {
      let expected = try plain.diffStats(of: .commit(id))
      #expect(try packed.diffStats(of: .commit(id)) == expected, "\(id)")
    }
    #expect(ids.count == 62)
  }

  /// Single bytes of a pack's object data changed, one copy at a time: each object then reads as before or not
  /// at all (zlib's checksum catches what changes inside an object), and never crashes the reader.
  @Test func aDamagedPackGivesNothingElse() throws {
    let repository = try Self.editedHistory()
    try repository.git("repack", "-a", "-d", "-f", "-q", "--depth=50", "--window=50")
    let objects = try Self.objects(of: repository)
    let folder = repository.path + "/.git/objects/pack"
    let stem = try #require(FolderListing.names(in: folder, withPrefix: "pack-").first { $0.hasSuffix(".pack") })
      .dropLast(5)
    let original = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(stem).pack"))
    let scratch = try ScratchDirectory("gitjournal-damaged-pack")
    try FileManager.default.createDirectory(atPath: scratch.path("objects/pack"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: "\(folder)/\(stem).idx", toPath: scratch.path("objects/pack/\(stem).idx"))
    var random = SeededGenerator(seed: 0x6461_6D61_6765)
    var unread = 0
    for _ in 0..<120 {
      var damaged = original
      let position = Int.random(in: 12..<(original.count - 20), using: &random)
      damaged[position] ^= UInt8.random(in: 1...255, using: &random)
      try damaged.write(to: URL(fileURLWithPath: scratch.path("objects/pack/\(stem).pack")))
      for mappedLimit in [PackData.mappedLimit, 0] {
        let reader = PackReader(
          objects: PackedObjects(objectsFolder: scratch.path("objects"), mappedLimit: mappedLimit))
        for object in objects {
          guard let read = reader.read(object.id).found else {
            unread += 1
            continue
          }
          // A changed header byte may name another kind (a blob read as a tree is refused by its caller).
          #expect(
            Data(read.bytes) == object.bytes || read.kind.name != object.kind, "\(object.id) after byte \(position)")
        }
      }
    }
    #expect(unread > 0)
  }

  /// Hand-made packs that no git writes: each read gives nil, at once.
  @Test func hostilePacksAreRefused() throws {
    let first = ObjectID.filled(0x11)
    let second = ObjectID.filled(0x22)
    let third = ObjectID.filled(0x33)

    // Two deltas whose bases are each other: a loop a depth limit ends.
    let loop = try HandMadePack([
      (first, PackEntry.referenceDelta(base: second, delta: [5, 5, 0x90, 5])),
      (second, PackEntry.referenceDelta(base: first, delta: [5, 5, 0x90, 5])),
    ])
    #expect(loop.read(first) == nil)
    #expect(loop.outcome(first) == "damaged", "a loop is never handed to libgit2, which allocates without bound")

    // A delta whose base is itself.
    let itself = try HandMadePack([(first, PackEntry.referenceDelta(base: first, delta: [5, 5, 0x90, 5]))])
    #expect(itself.outcome(first) == "damaged")

    // A blob that says it is larger than its data, or smaller, or far larger than anything read here.
    let sizes = try HandMadePack([
      (first, PackEntry.whole(type: 3, declaredSize: 100, content: Array("short".utf8))),
      (second, PackEntry.whole(type: 3, declaredSize: 2, content: Array("longer than two".utf8))),
      (third, PackEntry.whole(type: 3, declaredSize: 1 << 40, content: Array("huge".utf8))),
    ])
    #expect(sizes.read(first) == nil)
    #expect(sizes.read(second) == nil)
    #expect(sizes.read(third) == nil)
    #expect(sizes.outcome(first) == "damaged" && sizes.outcome(second) == "damaged")
    #expect(sizes.outcome(third) == "elsewhere", "an object larger than the reader reads is libgit2's")

    // Streams cut short, followed by another entry: without their Adler-32, or in the middle of their data. The
    // bytes that follow (the next entry, or the pack's checksum for the last) are not theirs.
    let text = Array(String(repeating: "a line of text, ", count: 40).utf8)
    let cut = try HandMadePack([
      (first, PackEntry.cutShort(content: text, missing: 4)),
      (second, PackEntry.cutShort(content: text, missing: 12)),
      (third, PackEntry.whole(type: 3, declaredSize: text.count, content: text)),
      (ObjectID.filled(0x44), PackEntry.cutShort(content: text, missing: 1)),
    ])
    #expect(cut.read(first) == nil)
    #expect(cut.read(second) == nil)
    #expect(cut.read(third) == Data(text))
    #expect(cut.read(ObjectID.filled(0x44)) == nil)

    // A delta that copies from beyond its base, one that makes more than it says, and one whose base lies
    // before the pack's start.
    let base = Array("0123456789".utf8)
    let deltas = try HandMadePack([
      (first, PackEntry.whole(type: 3, declaredSize: base.count, content: base)),
      (second, PackEntry.offsetDelta(distanceToBase: 1, delta: [10, 4, 0x91, 8, 4])),
      (third, PackEntry.offsetDelta(distanceToBase: 1 << 30, delta: [10, 4, 0x90, 4])),
    ])
    #expect(deltas.read(first) == Data(base))
    #expect(deltas.read(second) == nil)
    #expect(deltas.read(third) == nil)
    let tooLong = try HandMadePack([
      (first, PackEntry.whole(type: 3, declaredSize: base.count, content: base)),
      (second, PackEntry.offsetDelta(distanceToBase: 1, delta: [10, 2, 0x90, 4])),
    ])
    #expect(tooLong.read(second) == nil)
    // The same delta made right reads: the refusals above are the checks, not the format.
    let right = try HandMadePack([
      (first, PackEntry.whole(type: 3, declaredSize: base.count, content: base)),
      (second, PackEntry.offsetDelta(distanceToBase: 1, delta: [10, 6, 0x91, 2, 4, 2, 0x41, 0x42])),
    ])
    #expect(right.read(second) == Data("2345AB".utf8))
    // A copy with no size bytes copies 0x10000 bytes.
    let long = (0..<0x10010).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let wholeCopy = try HandMadePack([
      (first, PackEntry.whole(type: 3, declaredSize: long.count, content: long)),
      (second, PackEntry.offsetDelta(distanceToBase: 1, delta: [0x90, 0x80, 0x04, 0x80, 0x80, 0x04, 0x80])),
    ])
    #expect(wholeCopy.read(second) == Data(long[..<0x10000]))
    let large = try HandMadePack(
      [
        (first, PackEntry.whole(type: 3, declaredSize: base.count, content: base)),
        (second, PackEntry.offsetDelta(distanceToBase: 1, delta: [10, 6, 0x91, 2, 4, 2, 0x41, 0x42])),
      ], largeOffsets: true)
    #expect(large.read(second) == Data("2345AB".utf8))

    // A stream that runs past where the next entry starts: a pack read by entry reads no further, so it refuses
    // the object; a mapped pack is bounded by the largest stream of the object's size instead, and reads it.
    let whole = try HandMadePack([
      (first, PackEntry.whole(type: 3, declaredSize: text.count, content: text)),
      (second, PackEntry.whole(type: 3, declaredSize: base.count, content: base)),
    ])
    var inside = whole.index
    let secondOffset = 8 + 256 * 4 + 2 * 24 + 4
    inside.replaceSubrange(secondOffset..<(secondOffset + 4), with: [0, 0, 0, UInt8(12 + 2 + 6)])
    let overlapping = try HandMadePack(index: inside, data: whole.data)
    #expect(PackReader(objects: overlapping.objectsByEntry).read(first).found == nil)
    #expect(PackReader(objects: overlapping.objects).read(first).found.map { Data($0.bytes) } == Data(text))
    #expect(whole.read(first) == Data(text), "with the index as git writes it, both read it")

    // An index entry whose offset lies outside the pack: damaged, never handed to libgit2, which dies reading it
    // (SIGBUS).
    for outside in [UInt32(whole.data.count - 10), UInt32(whole.data.count + 4096), 0x7fff_ffff, 5] {
      var pointing = whole.index
      pointing.replaceSubrange(
        secondOffset..<(secondOffset + 4), with: withUnsafeBytes(of: outside.bigEndian) { Data($0) })
      let outsidePack = try HandMadePack(index: pointing, data: whole.data)
      #expect(outsidePack.outcome(second) == "damaged", "offset \(outside)")
      #expect(outsidePack.outcome(first) == "read")
    }
    // An id in no pack is libgit2's to look for (a loose object).
    #expect(whole.outcome(ObjectID.filled(0x77)) == "elsewhere")

    // An index whose counts go down, and a pack whose checksum is not the one its index names: no pack at all.
    var brokenIndex = right.index
    brokenIndex[8 + 4 * 0x20] = 0xff
    #expect(try HandMadePack(index: brokenIndex, data: right.data).objects.packs.isEmpty)
    var otherChecksum = right.data
    otherChecksum[otherChecksum.count - 1] ^= 1
    #expect(try HandMadePack(index: right.index, data: otherChecksum).objects.packs.isEmpty)
  }
}

extension PackReaderTests {
  /// A FIFO in a pack's or an index's place is no pack, at once: opening it for reading would otherwise wait
  /// until something writes to it.
  @Test(.timeLimit(.minutes(1))) func fifosInPlaceOfPackFilesAreNoPacks() throws {
    let real = try HandMadePack([(ObjectID.filled(0x11), PackEntry.whole(type: 3, declaredSize: 2, content: [1, 2]))])
    let folder = real.scratch.path("objects/pack")
    try FileManager.default.removeItem(atPath: folder + "/pack-1.pack")
    #expect(mkfifo(folder + "/pack-1.pack", 0o644) == 0)
    #expect(PackedObjects(objectsFolder: real.scratch.path("objects")).packs.isEmpty)
    try FileManager.default.removeItem(atPath: folder + "/pack-1.idx")
    #expect(mkfifo(folder + "/pack-1.idx", 0o644) == 0)
    try real.data.write(to: URL(fileURLWithPath: folder + "/pack-2.pack"))
    #expect(PackedObjects(objectsFolder: real.scratch.path("objects")).packs.isEmpty)
  }

  /// Modes as libgit2 reports them (`git_tree_entry_filemode`): only the owner's execute bit makes a file
  /// executable, so a file an old git stored as 100654 still compares equal to its 100644 version.
  @Test func treeModesAreNormalizedAsLibgit2Does() {
    let cases: [(stored: UInt32, reported: UInt32)] = [
      (0o100644, 0o100644), (0o100664, 0o100644), (0o100654, 0o100644), (0o100645, 0o100644),
      (0o100755, 0o100755), (0o100744, 0o100755), (0o040000, 0o040000), (0o040755, 0o040000),
      (0o160000, 0o160000), (0o120000, 0o120000), (0o120777, 0o100755),
    ]
    for (stored, reported) in cases {
      #expect(Tree.normalizedMode(stored) == reported, "\(String(stored, radix: 8))")
    }
  }

  /// The delta bases' cache stays within its limit however much is stored, keeps a base that is used again and
  /// again, lets go of what is not, and keeps no object larger than `largestKept`.
  @Test func deltaBasesStayBoundedAndKeepWhatIsUsed() {
    func object(_ size: Int) -> RawObject {
      let storage = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1)
      return RawObject(kind: .blob, storage: storage, count: size)
    }
    let bases = DeltaBases()
    let size = 64 << 10
    let stored = 4 * DeltaBases.byteLimit / size
    bases.store(object(size), pack: 0, offset: 0)
    for offset in 1..<stored {
      bases.store(object(size), pack: 0, offset: offset)
      #expect(bases.object(pack: 0, offset: 0) != nil, "the base used after every store, at store \(offset)")
    }
    let kept = (0..<stored).filter { bases.object(pack: 0, offset: $0) != nil }
    #expect(kept.count * size <= DeltaBases.byteLimit + 2 * DeltaBases.largestKept)
    #expect(kept.count * size >= DeltaBases.byteLimit / 2, "at least the newest half of the limit is kept")
    #expect(!kept.contains(1), "the first object never used again is let go")
    #expect(kept.contains(stored - 1))
    // The same offset in another pack is another object.
    #expect(bases.object(pack: 1, offset: stored - 1) == nil)
    bases.store(object(DeltaBases.largestKept + 1), pack: 0, offset: stored)
    #expect(bases.object(pack: 0, offset: stored) == nil)
  }
}

/// One entry of a hand-made pack: its header and its compressed data.
private enum PackEntry {
  case whole(type: Int, declaredSize: Int, content: [UInt8])
  case offsetDelta(distanceToBase: Int, delta: [UInt8])
  case referenceDelta(base: ObjectID, delta: [UInt8])
  /// A blob whose zlib stream lacks its last `missing` bytes.
  case cutShort(content: [UInt8], missing: Int)

  /// The entry's bytes; `offsetDelta`'s distance counts entries back, made into bytes by the caller.
  func bytes(distanceInBytes: Int) -> [UInt8] {
    switch self {
    case .whole(let type, let size, let content):
      return Self.header(type: type, size: size) + Self.compressed(content)
    case .offsetDelta(_, let delta):
      return Self.header(type: 6, size: delta.count) + Self.distance(distanceInBytes) + Self.compressed(delta)
    case .referenceDelta(let base, let delta):
      return Self.header(type: 7, size: delta.count) + withUnsafeBytes(of: base.raw.id) { Array($0) }
        + Self.compressed(delta)
    case .cutShort(let content, let missing):
      return Self.header(type: 3, size: content.count) + Self.compressed(content).dropLast(missing)
    }
  }

  private static func header(type: Int, size: Int) -> [UInt8] {
    var bytes = [UInt8(type << 4 | (size & 15))]
    var rest = size >> 4
    while rest > 0 {
      bytes[bytes.count - 1] |= 0x80
      bytes.append(UInt8(rest & 0x7f))
      rest >>= 7
    }
    return bytes
  }

  private static func distance(_ value: Int) -> [UInt8] {
    var bytes = [UInt8(value & 0x7f)]
    var rest = value >> 7
    while rest > 0 {
      rest -= 1
      bytes.insert(UInt8(0x80 | (rest & 0x7f)), at: 0)
      rest >>= 7
    }
    return bytes
  }

  private static func compressed(_ bytes: [UInt8]) -> [UInt8] {
    var length = compressBound(UInt(bytes.count))
    var output = [UInt8](repeating: 0, count: Int(length))
    let result = compress2(&output, &length, bytes, UInt(bytes.count), 6)
    precondition(result == Z_OK)
    return Array(output[..<Int(length)])
  }
}

/// A pack and its index written by hand into a scratch objects folder.
private struct HandMadePack {
  let scratch: ScratchDirectory
  let index: Data
  let data: Data
  let objects: PackedObjects
  /// The same pack read entry by entry, as a large pack is.
  let objectsByEntry: PackedObjects

  /// `id`'s bytes as both readers read them, nil when either refuses; they must agree.
  func read(_ id: ObjectID) -> Data? {
    let mapped = PackReader(objects: objects).read(id).found.map { Data($0.bytes) }
    let byEntry = PackReader(objects: objectsByEntry).read(id).found.map { Data($0.bytes) }
    #expect(mapped == byEntry, "\(id)")
    return mapped
  }

  /// What the mapped reader makes of `id`: "read", "elsewhere" (left to libgit2), or "damaged"; the reader by entry
  /// must say the same.
  func outcome(_ id: ObjectID) -> String {
    func name(_ read: PackRead) -> String {
      switch read {
      case .object: "read"
      case .elsewhere: "elsewhere"
      case .damaged: "damaged"
      }
    }
    let mapped = name(PackReader(objects: objects).read(id))
    #expect(mapped == name(PackReader(objects: objectsByEntry).read(id)), "\(id)")
    return mapped
  }

  /// `largeOffsets`: every offset in the index's table of 8-byte offsets, as git writes those past 2 GiB.
  init(_ entries: [(id: ObjectID, entry: PackEntry)], largeOffsets: Bool = false) throws {
    var data = Data("PACK".utf8) + Self.bigEndian(UInt32(2)) + Self.bigEndian(UInt32(entries.count))
    var offsets: [ObjectID: Int] = [:]
    var starts: [Int] = []
    for (id, entry) in entries {
      var distance = 0
      if case .offsetDelta(let back, _) = entry {
        distance = back > starts.count ? back : data.count - starts[starts.count - back]
      }
      offsets[id] = data.count
      starts.append(data.count)
      data.append(contentsOf: entry.bytes(distanceInBytes: distance))
    }
    let checksum = Data(repeating: 0xab, count: 20)
    data.append(checksum)
    let sorted = entries.map(\.id).sorted()
    var index = Data([0xff, 0x74, 0x4f, 0x63]) + Self.bigEndian(UInt32(2))
    for slot in 0..<256 {
      let count = sorted.filter { withUnsafeBytes(of: $0.raw.id) { Int($0[0]) } <= slot }.count
      index.append(Self.bigEndian(UInt32(count)))
    }
    for id in sorted { index.append(contentsOf: withUnsafeBytes(of: id.raw.id) { Array($0) }) }
    for _ in sorted { index.append(Self.bigEndian(UInt32(0))) }
    if largeOffsets {
      for position in sorted.indices { index.append(Self.bigEndian(0x8000_0000 | UInt32(position))) }
      for id in sorted { index.append(withUnsafeBytes(of: UInt64(offsets[id]!).bigEndian) { Data($0) }) }
    } else {
      for id in sorted { index.append(Self.bigEndian(UInt32(offsets[id]!))) }
    }
    index.append(checksum)
    index.append(Data(repeating: 0xcd, count: 20))
    try self.init(index: index, data: data)
  }

  init(index: Data, data: Data) throws {
    scratch = try ScratchDirectory("gitjournal-hand-made-pack")
    try FileManager.default.createDirectory(atPath: scratch.path("objects/pack"), withIntermediateDirectories: true)
    try index.write(to: URL(fileURLWithPath: scratch.path("objects/pack/pack-1.idx")))
    try data.write(to: URL(fileURLWithPath: scratch.path("objects/pack/pack-1.pack")))
    self.index = index
    self.data = data
    objects = PackedObjects(objectsFolder: scratch.path("objects"))
    objectsByEntry = PackedObjects(objectsFolder: scratch.path("objects"), mappedLimit: 0)
  }

  private static func bigEndian(_ value: UInt32) -> Data {
    withUnsafeBytes(of: value.bigEndian) { Data($0) }
  }
}

extension ObjectID {
  /// An id of twenty equal bytes, for hand-made packs.
  fileprivate static func filled(_ byte: UInt8) -> ObjectID {
    var raw = git_oid()
    _ = withUnsafeMutableBytes(of: &raw.id) { $0.initializeMemory(as: UInt8.self, repeating: byte) }
    return ObjectID(raw)
  }
}
