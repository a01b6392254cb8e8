import GitReader
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds the git repositories under some folders for `repos scan`: working trees (a folder with a `.git`) and
/// bare repositories, as the folders they would be registered as (a linked worktree gives its main repository).
///
/// It does not look inside a repository it found (submodules and vendored checkouts belong to it), nor into
/// hidden folders or symbolic links (no `.cache` full of clones, no loops), and goes at most `depth` folders down.
struct RepositoryFinder {
  let depth: Int

  /// The repositories under `folder` (which may itself be one), each once, in path order.
  func repositories(under folder: String) -> [String] {
    var found: [String] = []
    visit(folder, depth: 0, into: &found)
    var seen = Set<String>()
    return found.map { Repository.mainRoot(of: $0) }.filter { seen.insert($0).inserted }.sorted()
  }

  private func visit(_ folder: String, depth current: Int, into found: inout [String]) {
    if let root = Self.repository(at: folder) {
      found.append(root)
      return
    }
    guard current < depth, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    for name in names.sorted() where !name.hasPrefix(".") {
      let path = folder == "/" ? "/" + name : folder + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
      visit(path, depth: current + 1, into: &found)
    }
  }

  /// `folder` when it is a working tree's top or a bare repository, else nil.
  private static func repository(at folder: String) -> String? {
    let isWorkTree = access(folder + "/.git", F_OK) == 0
    let looksBare = ["HEAD", "objects", "refs"].allSatisfy { access(folder + "/" + $0, F_OK) == 0 }
    guard isWorkTree || looksBare, let repository = try? Repository.open(at: folder) else { return nil }
    return isWorkTree || repository.isBare ? repository.root : nil
  }
}
