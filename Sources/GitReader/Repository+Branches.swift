import CLibgit2
import Foundation
import Support

/// The local branches by name, and which of them is the default one: what `BranchAttribution` names commits by.
extension Repository {
  /// Every local branch (`refs/heads/<name>`) with the commit it points at, by the name git shows.
  func branchTips() throws(GitError) -> [(name: String, id: ObjectID)] {
    var branches: [(name: String, id: ObjectID)] = []
    var iterator: OpaquePointer?
    try check(git_reference_iterator_glob_new(&iterator, pointer, "refs/heads/*"), "git_reference_iterator_glob_new")
    defer { git_reference_iterator_free(iterator) }
    var reference: OpaquePointer?
    while true {
      let code = git_reference_next(&reference, iterator)
      if code == GIT_ITEROVER.rawValue { break }
      try check(code, "git_reference_next")
      defer { git_reference_free(reference) }
      guard let id = Self.peeledCommitID(reference), let full = git_reference_name(reference),
        strncmp(full, Self.branchPrefix, Self.branchPrefixLength) == 0
      else { continue }
      // One string per branch, made from the bytes after the prefix.
      branches.append((String(cString: full + Self.branchPrefixLength), id))
    }
    return branches
  }

  static let branchPrefix = "refs/heads/"
  static let branchPrefixLength = branchPrefix.utf8.count
  static let originPrefix = "refs/remotes/origin/"

  /// The name of the repository's default branch: the one origin's HEAD names (`git clone` and
  /// `git remote set-head` set `refs/remotes/origin/HEAD`), else the first of `init.defaultBranch`, `main` and
  /// `master` that is a local branch, else the only local branch; nil when none of these says.
  func defaultBranch(among local: [String]) -> String? {
    var head: OpaquePointer?
    if git_reference_lookup(&head, pointer, Self.originPrefix + "HEAD") == 0 {
      defer { git_reference_free(head) }
      if git_reference_type(head) == GIT_REFERENCE_SYMBOLIC, let target = git_reference_symbolic_target(head) {
        let name = String(cString: target)
        if name.hasPrefix(Self.originPrefix), name.count > Self.originPrefix.count {
          return String(name.dropFirst(Self.originPrefix.count))
        }
      }
    }
    let names = Set(local)
    let configured = configString("init.defaultBranch").map { [$0] } ?? []
    if let name = (configured + ["main", "master"]).first(where: names.contains) { return name }
    return local.count == 1 ? local[0] : nil
  }

  /// The commits the default branch's first-parent line starts from: its local branch and origin's copy of it,
  /// those that exist. A feature branch forked from `origin/main` with no local `main` still meets its line.
  func defaultLineTips(of name: String) -> [ObjectID] {
    [Self.branchPrefix + name, Self.originPrefix + name].compactMap { reference in
      var oid = git_oid()
      guard git_reference_name_to_id(&oid, pointer, reference) == 0 else { return nil }
      return ObjectID(oid)
    }
  }
}
