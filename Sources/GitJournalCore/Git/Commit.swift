import CLibgit2
import Foundation

/// A commit handle. Read what is needed and let it go: the walk keeps only ids.
final class Commit {
  let pointer: OpaquePointer

  init(pointer: OpaquePointer) { self.pointer = pointer }

  deinit { git_commit_free(pointer) }

  var id: ObjectID { ObjectID(git_commit_id(pointer).pointee) }

  /// Committer time in seconds since 1970: what orders the walk.
  var committerTime: Int64 { git_commit_time(pointer) }

  var parentCount: Int { Int(git_commit_parentcount(pointer)) }

  func parentID(_ index: Int) -> ObjectID? {
    guard let oid = git_commit_parent_id(pointer, UInt32(index)) else { return nil }
    return ObjectID(oid.pointee)
  }

  /// The author after the repository's mailmap: email and time (with the author's own UTC offset).
  func author(mailmap: Mailmap?) -> (name: String, email: String, time: Int64, offsetMinutes: Int) {
    var mapped: UnsafeMutablePointer<git_signature>?
    if let mailmap, git_commit_author_with_mailmap(&mapped, pointer, mailmap.pointer) == 0, let mapped {
      defer { git_signature_free(mapped) }
      return Self.read(mapped.pointee)
    }
    return Self.read(git_commit_author(pointer).pointee)
  }

  private static func read(_ signature: git_signature) -> (name: String, email: String, time: Int64, offsetMinutes: Int)
  {
    (
      name: signature.name.map { MessageDecoder.decode(bytesOf: $0, encoding: nil) } ?? "",
      email: signature.email.map { MessageDecoder.decode(bytesOf: $0, encoding: nil) } ?? "",
      time: signature.when.time,
      offsetMinutes: Int(signature.when.offset)
    )
  }

  /// The subject as git's `%s` shows it: the first paragraph of the message, its lines joined by spaces,
  /// decoded from the commit's declared encoding.
  var subject: String {
    guard let message = git_commit_message(pointer) else { return "" }
    let encoding = git_commit_message_encoding(pointer).map { String(cString: $0) }
    let text = MessageDecoder.decode(bytesOf: message, encoding: encoding)
    var lines: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingSpaces()
      if trimmed.isEmpty {
        if lines.isEmpty { continue }
        break
      }
      lines.append(trimmed)
    }
    return lines.joined(separator: " ")
  }

  var treeID: ObjectID { ObjectID(git_commit_tree_id(pointer).pointee) }
}

/// A tree handle.
final class Tree {
  let pointer: OpaquePointer

  init(pointer: OpaquePointer) { self.pointer = pointer }

  deinit { git_tree_free(pointer) }
}
