import Foundation

/// Two folders kept alike the way a file sync tool (Syncthing, Dropbox, iCloud Drive) keeps them, one pass at a
/// time and in one direction: a file that changed on the sending side since it was last carried replaces the
/// other side's, whatever that holds now (so an older day file can land on a newer one); a file changed on both
/// sides since is a conflict: the later change wins on both sides and the other is kept beside it as
/// `<name>.sync-conflict-<date>-<time>-<device>.<ext>`, as Syncthing names it. Nothing is ever deleted: a file
/// missing on one side is carried there again. Copies keep their modification time and land by rename. Files of
/// writers still at work (`.gitjournal-tmp-`) are not carried.
final class FolderSync {
  let folders: [String]
  /// Each path's bytes as last carried: the version both sides agreed on.
  private var carried: [String: [UInt8]] = [:]
  private var conflicts = 0
  /// Conflict copies made, by the side whose change lost.
  private(set) var conflictCopies: [String] = []

  init(_ first: String, _ second: String) {
    folders = [first, second]
  }

  /// Carries from side `from` (0 or 1) to the other the files `include` picks.
  func carry(from: Int, include: (String) -> Bool = { _ in true }) throws {
    let source = folders[from]
    let target = folders[1 - from]
    for path in Self.files(in: source) where include(path) {
      guard let sent = Self.bytes(source + "/" + path) else { continue }
      let present = Self.bytes(target + "/" + path)
      if present == sent {
        carried[path] = sent
        continue
      }
      let base = carried[path]
      guard let present else {
        try copy(sent, from: source + "/" + path, to: target + "/" + path)
        carried[path] = sent
        continue
      }
      // Changed only on the receiving side: that side's change goes the other way on its next pass.
      guard sent != base else { continue }
      if present != base {
        // Both changed: the later change wins, the other becomes a conflict copy on both sides.
        let sentTime = Self.modified(source + "/" + path)
        let presentTime = Self.modified(target + "/" + path)
        let sentWins = sentTime >= presentTime
        let loser = sentWins ? present : sent
        let loserTime = sentWins ? presentTime : sentTime
        conflicts += 1
        let copyPath = Self.conflictName(of: path, device: sentWins ? "RECEIVER" : "SENDERXX", number: conflicts)
        for folder in folders { try Self.write(loser, to: folder + "/" + copyPath, modified: loserTime) }
        carried[copyPath] = loser
        conflictCopies.append(copyPath)
        if sentWins {
          try copy(sent, from: source + "/" + path, to: target + "/" + path)
          carried[path] = sent
        } else {
          try copy(present, from: target + "/" + path, to: source + "/" + path)
          carried[path] = present
        }
        continue
      }
      try copy(sent, from: source + "/" + path, to: target + "/" + path)
      carried[path] = sent
    }
  }

  /// Passes both ways until neither carries anything: the folders are alike.
  func settle() throws {
    for _ in 0..<10 {
      try carry(from: 0)
      try carry(from: 1)
      if Self.files(in: folders[0]) == Self.files(in: folders[1])
        && Self.files(in: folders[0]).allSatisfy({
          Self.bytes(folders[0] + "/" + $0) == Self.bytes(folders[1] + "/" + $0)
        })
      {
        return
      }
    }
    throw ScratchError("the folders did not settle")
  }

  private func copy(_ bytes: [UInt8], from source: String, to target: String) throws {
    try Self.write(bytes, to: target, modified: Self.modified(source))
  }

  static func conflictName(of path: String, device: String, number: Int) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    let stem = (name as NSString).deletingPathExtension
    let ext = (name as NSString).pathExtension
    let copy =
      "\(stem).sync-conflict-20261201-1015\(String(format: "%02d", number % 60))-\(device)"
      + (ext.isEmpty ? "" : ".\(ext)")
    return folder.isEmpty ? copy : folder + "/" + copy
  }

  static func files(in folder: String) -> [String] {
    (FileManager.default.subpaths(atPath: folder) ?? []).filter { path in
      var isFolder: ObjCBool = false
      return !path.contains(".gitjournal-tmp-")
        && FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder) && !isFolder.boolValue
    }.sorted()
  }

  static func bytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
  }

  static func modified(_ path: String) -> Date {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date) ?? .distantPast
  }

  /// Writes by rename, as sync tools do, with the modification time of the version carried.
  static func write(_ bytes: [UInt8], to path: String, modified: Date) throws {
    let folder = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let temporary = folder + "/.sync-incoming-\(UUID().uuidString)"
    try Data(bytes).write(to: URL(fileURLWithPath: temporary))
    try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: temporary)
    guard rename(temporary, path) == 0 else { throw ScratchError("cannot replace \(path)") }
  }
}
