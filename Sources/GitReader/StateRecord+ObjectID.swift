import Support

extension StateRecord {
  /// Field `index` as a full object id, or nil.
  func objectID(_ index: Int) -> ObjectID? { ObjectID(hexDigits: bytes(index)) }
}
