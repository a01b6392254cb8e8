import CLibgit2
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A local branch by the name git shows (`main`, `feature/x`) and the commit it points at.
typealias BranchTip = (name: String, id: ObjectID)

/// The local branches by name, and which of them is the default one: what `BranchAttribution` names commits by.
extension Repository {
  /// Every local branch (`refs/heads/<name>`) with the commit it points at, by the name git shows.
  func branchTips() throws(GitError) -> [BranchTip] {
    if let listed = LocalBranches.list(commonDirectory: commonDirectory) { return listed }
    var branches: [BranchTip] = []
    try forEachLocalBranch { reference in
      guard let id = Self.peeledCommitID(reference), let full = git_reference_name(reference),
        strncmp(full, Self.branchPrefix, Self.branchPrefixLength) == 0
      else { return }
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

extension Repository {
  /// The references a journal walk and its branch names start from, as text: every local branch with its target,
  /// HEAD (its target and what it points at), origin's HEAD, `init.defaultBranch`, and origin's copy of the
  /// default branch, with the local branches as `branchTips()` listed them. Equal texts give equal walks (see
  /// `HistoryCache`).
  func walkReferences(branches: [BranchTip]) -> String {
    // The branches' lines made as bytes: a clone with its 5,000 pull requests as branches spent a twentieth of a
    // second rebuild's instructions joining them as strings.
    var lines: [UInt8] = []
    lines.reserveCapacity(branches.count * 80)
    for branch in branches.sorted(by: { $0.name < $1.name }) {
      lines += "branch ".utf8
      lines += branch.id.hex.utf8
      lines.append(UInt8(ascii: " "))
      lines += branch.name.utf8
      lines.append(UInt8(ascii: "\n"))
    }
    var text = String(decoding: lines, as: UTF8.self)
    for name in ["HEAD", Self.originPrefix + "HEAD"] {
      var reference: OpaquePointer?
      guard git_reference_lookup(&reference, pointer, name) == 0 else {
        text += "\(name) none\n"
        continue
      }
      defer { git_reference_free(reference) }
      let symbolic = git_reference_symbolic_target(reference).map { String(cString: $0) } ?? ""
      text += "\(name) \(symbolic) \(Self.peeledCommitID(reference)?.hex ?? "none")\n"
    }
    // Which branch is the default follows from what is above and `init.defaultBranch`; its line starts from its
    // local branch (above) and origin's copy of it.
    text += "init.defaultBranch \(configString("init.defaultBranch") ?? "")\n"
    if let name = defaultBranch(among: branches.map(\.name)) {
      var oid = git_oid()
      let found = git_reference_name_to_id(&oid, pointer, Self.originPrefix + name) == 0
      text += "default \(name) \(found ? ObjectID(oid).hex : "none")\n"
    }
    return text
  }
}
