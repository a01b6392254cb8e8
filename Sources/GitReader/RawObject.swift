import CLibgit2
import Support

/// The kinds of object, numbered as both the pack format and libgit2 number them.
enum ObjectKind: Int {
  case commit = 1
  case tree = 2
  case blob = 3
  case tag = 4

  var name: String { "\(self)" }
}

/// An object's kind and bytes as git stores them (a tree's as its entries are written), read from a pack by
/// `PackReader` or through libgit2. `@unchecked Sendable`: the bytes are never written once it is made, and the diff
/// workers share the ones kept as delta bases (`DeltaBases`).
final class RawObject: @unchecked Sendable {
  let kind: ObjectKind
  let bytes: UnsafeRawBufferPointer
  private let release: Release

  private enum Release {
    case allocated
    case libgit2(OpaquePointer)
  }

  /// Takes `storage`, allocated with `UnsafeMutableRawPointer.allocate`, of which the first `count` bytes are the
  /// object's.
  init(kind: ObjectKind, storage: UnsafeMutableRawPointer, count: Int) {
    self.kind = kind
    bytes = UnsafeRawBufferPointer(start: storage, count: count)
    release = .allocated
  }

  /// Takes ownership of an object libgit2 read (`git_odb_read`); nil for a kind gitjournal does not read.
  init?(libgit2 object: OpaquePointer) {
    guard let kind = ObjectKind(rawValue: Int(git_odb_object_type(object).rawValue)) else {
      git_odb_object_free(object)
      return nil
    }
    self.kind = kind
    bytes = UnsafeRawBufferPointer(start: git_odb_object_data(object), count: git_odb_object_size(object))
    release = .libgit2(object)
  }

  deinit {
    switch release {
    case .allocated: UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate()
    case .libgit2(let object): git_odb_object_free(object)
    }
  }
}
