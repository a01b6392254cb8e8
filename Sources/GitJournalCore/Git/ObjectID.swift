import CLibgit2

/// A git object id copied out of libgit2, hashable and sendable.
public struct ObjectID: Hashable, Comparable, Sendable, CustomStringConvertible {
  let raw: git_oid

  init(_ raw: git_oid) { self.raw = raw }

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
