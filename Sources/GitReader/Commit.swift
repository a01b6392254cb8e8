import CLibgit2
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A commit handle. Read what is needed and let it go: the walk keeps only ids.
final class Commit {
  private let pointer: OpaquePointer

  /// Takes ownership of a commit libgit2 looked up (see `Repository.commit(_:)`).
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
  package func author(mailmap: Mailmap?) -> (name: String, email: String, time: Int64, offsetMinutes: Int) {
    let signature = git_commit_author(pointer).pointee
    var name = UnsafePointer(signature.name)
    var email = UnsafePointer(signature.email)
    if let mailmap, let written = name, let address = email {
      (name, email) = mailmap.resolve(name: written, email: address)
    }
    return (
      name: name.map { MessageDecoder.decode(bytesOf: $0, encoding: nil) } ?? "",
      email: email.map { MessageDecoder.decode(bytesOf: $0, encoding: nil) } ?? "",
      time: signature.when.time,
      offsetMinutes: Int(signature.when.offset)
    )
  }

  /// The subject as git's `%s` shows it: the first paragraph of the message, its lines joined by spaces,
  /// decoded from the commit's declared encoding.
  var subject: String {
    guard let message = git_commit_message(pointer) else { return "" }
    let encoding = git_commit_message_encoding(pointer).map { String(cString: $0) }
    let bytes = UnsafeRawBufferPointer(start: message, count: strlen(message))
    // A message with no declared encoding reads as UTF-8 or Latin-1, where a byte below 0x80 is always its
    // ASCII character; in a declared double-byte encoding such as Shift-JIS it can be half of one, so such a
    // message is decoded whole.
    let isASCIICompatible = encoding == nil || encoding?.lowercased() == "utf-8"
    let paragraph = isASCIICompatible ? Self.firstParagraph(of: bytes) : nil
    let text = MessageDecoder.decode(Array(paragraph ?? bytes[...]), encoding: encoding)
    // The paragraph's lines joined by spaces, built here rather than by joining Substrings: that generic call's
    // first use in a process has the runtime look up its conformances (BENCHMARKS.md, the hook).
    var subject = ""
    // Split at line feeds, not at the Character "\n": Swift reads "\r\n" as one Character.
    for line in text.utf8.split(separator: 10, omittingEmptySubsequences: false) {
      let trimmed = Substring(line).trimmingLineSpaces()
      if trimmed.isEmpty {
        if subject.isEmpty { continue }
        break
      }
      if !subject.isEmpty { subject += " " }
      subject += String(trimmed)
    }
    return subject
  }

  /// The bytes from the first line with text to the blank line after it (spaces, tabs and carriage returns
  /// only), so that a long body is never decoded. Nil when that cannot be told from the bytes: a line of spaces
  /// and non-ASCII bytes may be blank (a no-break space) or not, which only decoding shows.
  static func firstParagraph(of message: UnsafeRawBufferPointer) -> Slice<UnsafeRawBufferPointer>? {
    var start: Int?
    var lineStart = 0
    while lineStart < message.count {
      var lineEnd = lineStart
      var hasText = false
      var hasOther = false
      while lineEnd < message.count && message[lineEnd] != 10 {
        let byte = message[lineEnd]
        if byte >= 0x80 { hasOther = true } else if byte != 32 && byte != 9 && byte != 13 { hasText = true }
        lineEnd += 1
      }
      if !hasText && hasOther { return nil }
      if hasText {
        if start == nil { start = lineStart }
      } else if let start {
        return message[start..<lineStart]
      }
      lineStart = lineEnd + 1
    }
    return message[(start ?? message.count)...]
  }

  var treeID: ObjectID { ObjectID(git_commit_tree_id(pointer).pointee) }
}
