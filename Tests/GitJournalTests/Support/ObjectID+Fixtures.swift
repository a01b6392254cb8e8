@testable import GitReader

extension ObjectID {
  /// An id made of one hex digit repeated 40 times, for records built in memory.
  static func repeating(_ digit: String) -> ObjectID {
    guard let id = ObjectID(hex: String(repeating: digit, count: 40)) else {
      preconditionFailure("'\(digit)' is not one lower-case hex digit")
    }
    return id
  }
}
