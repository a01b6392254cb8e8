import Support

extension StateRecord {
  /// Field `index` as a full object id, or nil.
  package func objectID(_ index: Int) -> ObjectID? { ObjectID(hexDigits: bytes(index)) }
}
