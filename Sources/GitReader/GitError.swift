import CLibgit2
import Support

/// A failed libgit2 call: its return code, libgit2's message, and which function failed.
public struct GitError: Error, CustomStringConvertible, Sendable {
  public let code: Int32
  public let message: String
  public let function: String

  /// Reads `git_error_last()` right away: libgit2 keeps it per thread and the next call may replace it.
  init(code: Int32, function: String) {
    self.code = code
    self.function = function
    if let last = git_error_last() {
      message = last.pointee.message.map { String(cString: $0) } ?? "unknown libgit2 error"
    } else {
      message = "unknown libgit2 error (code \(code))"
    }
  }

  /// An error gitjournal finds itself, in its own words.
  init(code: Int32, function: String, message: String) {
    self.code = code
    self.function = function
    self.message = message
  }

  public var isNotFound: Bool { code == GIT_ENOTFOUND.rawValue }

  public var description: String { "\(message) (\(function))" }
}

/// Turns a negative libgit2 return code into a thrown `GitError`.
@discardableResult
package func check(_ code: Int32, _ function: String) throws(GitError) -> Int32 {
  if code < 0 { throw GitError(code: code, function: function) }
  return code
}
