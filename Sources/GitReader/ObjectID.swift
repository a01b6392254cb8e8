import CLibgit2
import Support

/// A git object id copied out of libgit2, hashable and sendable.
public struct ObjectID: Hashable, Comparable, Sendable, CustomStringConvertible {
  let raw: git_oid

  init(_ raw: git_oid) { self.raw = raw }

  /// Parses a full 40-digit hex id; nil for anything else.
  init?(hex: some StringProtocol) {
    let digits = Array(hex.utf8)
    guard digits.count == 40, digits.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) else {
      return nil
    }
    var oid = git_oid()
    let parsed = digits.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { git_oid_fromstrn(&oid, $0.baseAddress, 40) }
    }
    guard parsed == 0 else { return nil }
    raw = oid
  }

  /// The full 40-character hex id.
  public var hex: String {
    var copy = raw
    var buffer = [CChar](repeating: 0, count: 41)
    git_oid_tostr(&buffer, 41, &copy)
    return String(decoding: buffer.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  public var description: String { hex }

  public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
    var l = lhs.raw
    var r = rhs.raw
    return git_oid_equal(&l, &r) != 0
  }

  public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
    var l = lhs.raw
    var r = rhs.raw
    return git_oid_cmp(&l, &r) < 0
  }

  public func hash(into hasher: inout Hasher) {
    withUnsafeBytes(of: raw.id) { hasher.combine(bytes: $0) }
  }
}
