import Foundation

/// A fresh temporary folder, removed with everything in it when the value is released.
final class ScratchDirectory: Sendable {
  /// The folder, with symlinks resolved so that paths compare equal to what libgit2 reports.
  let path: String

  init(_ label: String = "gitjournal-tests") throws {
    GitIsolation.ensure()
    var template = Array((NSTemporaryDirectory() + "/\(label).XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard let made else { throw ScratchError("cannot create a temporary folder for \(label)") }
    let raw = String(cString: made)
    guard let resolved = realpath(raw, nil) else { throw ScratchError("cannot resolve \(raw)") }
    defer { free(resolved) }
    path = String(cString: resolved)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// The absolute path of `relative` inside the folder.
  func path(_ relative: String) -> String { path + "/" + relative }

  /// Writes UTF-8 text, creating missing parent folders.
  func write(_ text: String, to relative: String) throws {
    try write(bytes: Array(text.utf8), to: relative)
  }

  /// Writes raw bytes, creating missing parent folders.
  func write(bytes: [UInt8], to relative: String) throws {
    let file = path(relative)
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: file))
  }

  /// Creates a folder (and its parents) and returns its absolute path.
  @discardableResult
  func makeFolder(_ relative: String) throws -> String {
    try FileManager.default.createDirectory(atPath: path(relative), withIntermediateDirectories: true)
    return path(relative)
  }

  /// The text of a file inside the folder, or nil when it does not exist.
  func read(_ relative: String) -> String? {
    FileManager.default.contents(atPath: path(relative)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Every file below the folder, as paths relative to it, sorted.
  func allFiles() -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: path) else { return [] }
    var files: [String] = []
    while let next = enumerator.nextObject() as? String {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: path(next), isDirectory: &isFolder), !isFolder.boolValue {
        files.append(next)
      }
    }
    return files.sorted()
  }
}

/// A test set-up step that could not be done.
struct ScratchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
