import Foundation
import Support

/// A quick health word for `repos` and `doctor`: "ok", or what is wrong.
package enum RepositoryCheck {
  package static func status(of path: String) -> String {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
      return "missing"
    }
    do {
      let repository = try Repository.open(at: path)
      if repository.isEmpty { return "no commits yet" }
      if repository.isShallow { return "shallow clone (skipped)" }
      return "ok"
    } catch {
      return error.isNotFound ? "not a git repository" : "unreadable: \(error.message)"
    }
  }
}
