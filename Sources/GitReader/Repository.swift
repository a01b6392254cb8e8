import CLibgit2
import Support

/// An open libgit2 repository. Not thread-safe: use one per task and copy what you need into value types.
package final class Repository {
  /// The libgit2 handle; internal for the extensions of this type (`Repository+Branches`).
  let pointer: OpaquePointer
  /// Set by a worker that diffs many commits in a row (see `RecentObjects`).
  var recentObjects: RecentObjects?
  /// Set for a run of diffs (`readObjects(through:)`): trees and blobs are read from the packs without libgit2's
  /// locks.
  private(set) var packReader: PackReader?
  /// libgit2's object database, for the trees and blobs `packReader` does not read; opened on first use.
  private var objectDatabase: OpaquePointer?

  private init(pointer: OpaquePointer) {
    self.pointer = pointer
  }

  deinit {
    // The objects kept for the next diff go first: some of them belong to the object database below.
    recentObjects = nil
    if let objectDatabase { git_odb_free(objectDatabase) }
    git_repository_free(pointer)
  }

  /// Reads this handle's trees and blobs through `reader` from now on; what it does not read still comes from
  /// libgit2.
  func readObjects(through reader: PackReader) {
    precondition(packReader == nil, "a handle reads through one pack reader")
    packReader = reader
  }

  /// Opens the repository at exactly `path` (its working tree or its git dir), without searching upwards and
  /// without reading git's hook environment (GIT_DIR and friends belong to whichever repository is committing).
  package static func open(at path: String) throws(GitError) -> Repository {
    LibGit2.ensureInitialized()
    var handle: OpaquePointer?
    let opened = git_repository_open_ext(&handle, path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil)
    if opened < 0 {
      let error = GitError(code: opened, function: "git_repository_open_ext")
      throw objectFormatError(at: path, format: objectFormat(configuredAt: path)) ?? error
    }
    // libgit2 checks every config file (system, global, the repository's) for changes each time it reads a
    // setting, which it does for most reference and object reads: a dozen stat calls per file per repository
    // in a hook. gitjournal only reads, so one snapshot taken at open serves the whole run.
    var snapshot: OpaquePointer?
    var format: String?
    if git_repository_config_snapshot(&snapshot, handle) == 0, let snapshot {
      git_repository_set_config(handle, snapshot)
      var value: UnsafePointer<CChar>?
      if git_config_get_string(&value, snapshot, "extensions.objectformat") == 0, let value {
        format = String(cString: value)
      }
      git_config_free(snapshot)
    }
    guard let handle else { throw GitError(code: GIT_ERROR.rawValue, function: "git_repository_open_ext") }
    let repository = Repository(pointer: handle)
    // gitjournal's own readers (packs, trees) take an object id to be 20 bytes: a libgit2 that could open a
    // repository of other ids must still not hand it to them.
    if let refusal = objectFormatError(at: path, format: format) { throw refusal }
    return repository
  }

  /// Why the repository that contains `path` cannot be read, when there is one and libgit2 refuses it; nil when
  /// there is none, or it opens.
  package static func unreadableReason(near path: String) -> String? {
    LibGit2.ensureInitialized()
    var buffer = git_buf()
    defer { git_buf_dispose(&buffer) }
    guard git_repository_discover(&buffer, path, 0, nil) == 0, let found = buffer.ptr else { return nil }
    do {
      _ = try Repository.open(at: String(cString: found))
      return nil
    } catch {
      return error.message
    }
  }

  /// The refusal of a repository whose objects are named by other ids than SHA-1's (`git init
  /// --object-format=sha256`), or nil for SHA-1's.
  private static func objectFormatError(at path: String, format: String?) -> GitError? {
    guard let format, format.lowercased() != "sha1" else { return nil }
    var major: Int32 = 0
    var minor: Int32 = 0
    var revision: Int32 = 0
    git_libgit2_version(&major, &minor, &revision)
    return GitError(
      code: GIT_ERROR.rawValue, function: "git_repository_open_ext",
      message: "repository at \(path) names its objects by \(format) ids (extensions.objectFormat), which "
        + "gitjournal cannot read yet (libgit2 \(major).\(minor).\(revision)): it is not journaled")
  }

  /// `extensions.objectFormat` as the repository at `path` (its working tree or its git dir) sets it, read from
  /// its config file directly: libgit2 refuses to open a repository of an object format it does not know.
  private static func objectFormat(configuredAt path: String) -> String? {
    var buffer = git_buf()
    defer { git_buf_dispose(&buffer) }
    guard git_repository_discover(&buffer, path, 0, nil) == 0, let found = buffer.ptr else { return nil }
    var config: OpaquePointer?
    guard git_config_open_ondisk(&config, String(cString: found) + "config") == 0, let config else { return nil }
    defer { git_config_free(config) }
    var value = git_buf()
    defer { git_buf_dispose(&value) }
    guard git_config_get_string_buf(&value, config, "extensions.objectformat") == 0, let text = value.ptr else {
      return nil
    }
    return String(cString: text)
  }

  /// The working tree (or, for a bare repository, the git dir) of the repository that contains `path`.
  package static func discover(from path: String) -> String? {
    containing(path)?.root
  }

  /// The repository a linked worktree at `root` belongs to (its main working tree, or the bare repository), else
  /// `root`: the one to register, so a repository is one project whichever of its worktrees names it.
  package static func mainRoot(of root: String) -> String {
    (try? Repository.open(at: root))?.mainRoot ?? root
  }

  /// `mainRoot(of:)` for a repository already open: its own root unless it is a linked worktree.
  package var mainRoot: String {
    commonDirectory == gitDirectory ? root : (Self.discover(from: commonDirectory) ?? root)
  }

  /// The repository that contains `path`, opened once.
  package static func containing(_ path: String) -> Repository? {
    LibGit2.ensureInitialized()
    var buffer = git_buf()
    defer { git_buf_dispose(&buffer) }
    guard git_repository_discover(&buffer, path, 0, nil) == 0, let found = buffer.ptr else { return nil }
    return try? Repository.open(at: String(cString: found))
  }

  /// The working tree, or the git dir of a bare repository: how the config names a repository.
  package var root: String { workingDirectory ?? gitDirectory }

  package var isBare: Bool { git_repository_is_bare(pointer) == 1 }
  /// True when there are no commits yet. libgit2's `git_repository_is_empty` says so only when HEAD names the
  /// initial branch it expects (init.defaultBranch, else master), so a `git init -b main` repository looked
  /// non-empty: an unborn HEAD with no branch is empty too.
  var isEmpty: Bool {
    if git_repository_is_empty(pointer) == 1 { return true }
    return git_repository_head_unborn(pointer) == 1 && ((try? tipIDs()) ?? []).isEmpty
  }
  var isShallow: Bool { git_repository_is_shallow(pointer) == 1 }

  /// The git dir, with a trailing slash removed.
  package var gitDirectory: String { Self.trimmedPath(git_repository_path(pointer)) ?? "" }

  /// The git dir shared by all linked worktrees (where hooks and config live).
  package var commonDirectory: String { Self.trimmedPath(git_repository_commondir(pointer)) ?? gitDirectory }

  /// The working tree, or nil for a bare repository.
  package var workingDirectory: String? { Self.trimmedPath(git_repository_workdir(pointer)) }

  private static func trimmedPath(_ cString: UnsafePointer<CChar>?) -> String? {
    guard let cString else { return nil }
    var path = String(cString: cString)
    // Counted in bytes: `count` walks the whole path by characters, and this runs for every configured repository.
    while path.utf8.count > 1 && path.utf8.last == UInt8(ascii: "/") { path.removeLast() }
    return path
  }

  /// A string value from the repository's configuration as git reads it (local, global, system).
  package func configString(_ key: String) -> String? {
    var config: OpaquePointer?
    guard git_repository_config_snapshot(&config, pointer) == 0, let config else { return nil }
    defer { git_config_free(config) }
    var value: UnsafePointer<CChar>?
    guard git_config_get_string(&value, config, key) == 0, let value else { return nil }
    return String(cString: value)
  }

  /// Calls `body` with each local branch's reference (`refs/heads/*`), valid only during the call.
  func forEachLocalBranch(_ body: (OpaquePointer?) -> Void) throws(GitError) {
    var iterator: OpaquePointer?
    try check(git_reference_iterator_glob_new(&iterator, pointer, "refs/heads/*"), "git_reference_iterator_glob_new")
    defer { git_reference_iterator_free(iterator) }
    var reference: OpaquePointer?
    while true {
      let code = git_reference_next(&reference, iterator)
      if code == GIT_ITEROVER.rawValue { break }
      try check(code, "git_reference_next")
      defer { git_reference_free(reference) }
      body(reference)
    }
  }

  /// The commits of every local branch: where a journal walk starts.
  func tipIDs() throws(GitError) -> [ObjectID] {
    tipIDs(branches: try branchTips())
  }

  /// `tipIDs()` with the local branches listed already (`branchTips()`).
  ///
  /// A commit that no local branch reaches does not count, in any view: git leaves a commit made on a detached
  /// HEAD behind when HEAD moves on (only its reflog holds it), and a journal that counted HEAD would list such a
  /// commit until the next checkout and then drop what it had recorded. It counts once a branch holds it.
  func tipIDs(branches: [BranchTip]) -> [ObjectID] {
    // Unordered and each once: the walk orders commits itself.
    Array(Set(branches.map(\.id)))
  }

  /// The id a branch points at, read from the reference alone: loading thousands of tip commits just to
  /// learn that they are old would cost most of a hook in a repository with many branches. A branch that
  /// does not point at a commit is dropped later, when the walk reads it.
  static func peeledCommitID(_ reference: OpaquePointer?) -> ObjectID? {
    if git_reference_type(reference) == GIT_REFERENCE_DIRECT {
      return git_reference_target(reference).map { ObjectID($0.pointee) }
    }
    var resolved: OpaquePointer?
    guard git_reference_resolve(&resolved, reference) == 0, let resolved else { return nil }
    defer { git_reference_free(resolved) }
    return git_reference_target(resolved).map { ObjectID($0.pointee) }
  }

  /// The id HEAD points at, or nil when HEAD is unborn.
  package func headCommitID() -> ObjectID? {
    var oid = git_oid()
    guard git_reference_name_to_id(&oid, pointer, "HEAD") == 0 else { return nil }
    return ObjectID(oid)
  }

  func commit(_ id: ObjectID) throws(GitError) -> Commit {
    try lookUp(id, with: git_commit_lookup, "git_commit_lookup", wrap: Commit.init)
  }

  func tree(_ id: ObjectID) throws(GitError) -> Tree {
    try object(id, size: \.byteCount) { () throws(GitError) in Tree(try rawObject(id, of: .tree), id: id) }
  }

  /// A blob's bytes, read as trees are: the diff then hands them to xdiff as they are (`LineChanges`).
  func blob(_ id: ObjectID) throws(GitError) -> RawObject {
    try object(id, size: \.bytes.count) { () throws(GitError) in try rawObject(id, of: .blob) }
  }

  /// Looks `id` up through the worker's `RecentObjects` when it has one.
  private func object<T: AnyObject>(
    _ id: ObjectID, size: (T) -> Int, load: () throws(GitError) -> T
  ) throws(GitError) -> T {
    guard let recentObjects else { return try load() }
    return try recentObjects.object(id, size: size, load: load)
  }

  /// `id`'s bytes, which must be a `kind`: from the pack reader when there is one and it has them, else from
  /// libgit2 (loose objects, alternates, and any entry the reader does not read). An object the reader found damaged
  /// is an error here, never asked of libgit2 (see `PackRead`).
  func rawObject(_ id: ObjectID, of kind: ObjectKind) throws(GitError) -> RawObject {
    let object: RawObject
    switch packReader?.read(id) ?? .elsewhere {
    case .object(let read):
      object = read
    case .damaged(let problem):
      throw GitError(
        code: GIT_EINVALID.rawValue, function: "git_odb_read",
        message: "object \(id.hex) is damaged: \(problem); 'git fsck' tells what else is")
    case .elsewhere:
      if objectDatabase == nil {
        var database: OpaquePointer?
        try check(git_repository_odb(&database, pointer), "git_repository_odb")
        objectDatabase = database
      }
      var handle: OpaquePointer?
      var raw = id.raw
      try check(git_odb_read(&handle, objectDatabase, &raw), "git_odb_read")
      guard let handle, let read = RawObject(libgit2: handle) else {
        throw GitError(code: GIT_ENOTFOUND.rawValue, function: "git_odb_read")
      }
      object = read
    }
    guard object.kind == kind else {
      throw GitError(
        code: GIT_EINVALID.rawValue, function: "git_odb_read",
        message: "object \(id.hex) is a \(object.kind.name), not a \(kind.name)")
    }
    return object
  }

  /// Looks `id` up with one of libgit2's typed lookups and hands the new object to its handle class.
  private func lookUp<T>(
    _ id: ObjectID, with lookup: (UnsafeMutablePointer<OpaquePointer?>, OpaquePointer, UnsafePointer<git_oid>) -> Int32,
    _ function: String, wrap: (OpaquePointer) -> T
  ) throws(GitError) -> T {
    var handle: OpaquePointer?
    var raw = id.raw
    try check(lookup(&handle, pointer, &raw), function)
    guard let handle else { throw GitError(code: GIT_ENOTFOUND.rawValue, function: function) }
    return wrap(handle)
  }

  /// What the mailmap is read from, outside the commits: the working tree's `.mailmap` and the file named by
  /// `mailmap.file`, with their contents, and `mailmap.blob`.
  /// Nil when a `mailmap.file` cannot be found from its value as libgit2 finds it (a relative path, or `~user/`):
  /// then nothing is cached under the mailmap.
  func mailmapSources() -> String? {
    var text = ""
    var files = [workingDirectory.map { $0 + "/.mailmap" }].compactMap { $0 }
    if let file = configString("mailmap.file") {
      // libgit2 reads `~/` as the home folder: keyed by the file's path as written, an edit of `~/.mailmap` would
      // go unseen.
      if file.hasPrefix("/") {
        files.append(file)
      } else if file.hasPrefix("~/"), let home = getenv("HOME"), home.pointee != 0 {
        files.append(String(cString: home) + file.dropFirst())
      } else {
        return nil
      }
    }
    for file in files {
      // A file that is not a regular one (a FIFO would block) counts as none.
      let contents = ((try? AtomicFile.readContents(file)) ?? nil).map { String(decoding: $0.bytes, as: UTF8.self) }
      text += "file \(file)\n\(contents ?? "(none)")\n"
    }
    text += "blob \(configString("mailmap.blob") ?? "(none)")\n"
    return text
  }

  /// The repository's mailmap (.mailmap, mailmap.file, mailmap.blob), or nil when it cannot be read.
  func mailmap() -> Mailmap? {
    var handle: OpaquePointer?
    guard git_mailmap_from_repository(&handle, pointer) == 0, let handle else { return nil }
    return Mailmap(pointer: handle)
  }
}
