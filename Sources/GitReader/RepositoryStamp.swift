import CLibgit2
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file-system state that decides what a journal read of one repository gives, besides its objects (which
/// never change): while every path here stamps as it did, the branch tips, HEAD, the config (the author's
/// address, the mailmap's settings) and the mailmap files are as they were, so the read would give what it gave.
///
/// The paths: the configured folder and its `.git` (which repository it is; while their times hold, nothing was
/// added to them or removed, see `PathStamp.Kind.guarding`), the git dir's `HEAD`, `commondir`
/// and `config.worktree` (a linked worktree keeps its HEAD there), the common dir's `config`, `packed-refs` and
/// `shallow`, every folder and file under `refs/heads` (a ref is written by renaming a lock file over it, which
/// changes the times of the folder it is in; a new subfolder changes its parent's; a file changed in place
/// changes its own), the working tree's `.mailmap` and `mailmap.file`, and the global, XDG and system config
/// files as libgit2 finds them from `HOME` and `XDG_CONFIG_HOME`. Remote-tracking refs and tags are left out of
/// the hook's stamp: the journal walks from local branches and HEAD only, so a fetch that moves no local branch
/// changes nothing there. A rebuild's history key also names origin's HEAD and origin's copy of the default branch,
/// so its stamp adds every folder and file under `refs/remotes/origin` and the `refs/remotes` and `refs` folders a
/// new one would be made in (`includingOrigin`); a symbolic ref there may point within origin's refs or at a local
/// branch, both stamped.
///
/// A stamp is only taken when these paths are all that matter; otherwise there is none and every read is full:
/// a config file with an `include` (its targets are not stamped), `mailmap.blob` set (it may name any ref), a
/// relative `mailmap.file`, HEAD or a branch that is a symbolic ref to something outside `refs/heads` (or one of
/// origin's refs to something outside origin's refs and `refs/heads`), a
/// `reftable` folder (a reftable repository keeps its refs in `reftable/tables.list` and the tables it names,
/// rewritten by rename on each update; stamping that list would do, but libgit2 1.5 cannot read such a
/// repository at all), and any path changed so recently that a change made now could keep its times (see
/// `PathStamp.isRacy`).
struct RepositoryStamp: Equatable {
  var entries: [(path: String, stamp: PathStamp)]

  static func == (lhs: RepositoryStamp, rhs: RepositoryStamp) -> Bool {
    lhs.entries.count == rhs.entries.count
      && zip(lhs.entries, rhs.entries).allSatisfy { $0.path == $1.path && $0.stamp == $1.stamp }
  }

  /// The stamp of `repository`, opened from the configured folder `root`, or nil when the paths above are not
  /// all that decide a read. Take it before reading any ref: a ref that moves after the stamp makes the next
  /// check miss, which costs a read, never a commit.
  ///
  /// `includingOrigin`: origin's refs are stamped too (every file under `refs/remotes/origin`, that folder, and the
  /// `refs/remotes` and `refs` folders a new one would be made in), as a rebuild's history key names origin's HEAD
  /// and origin's copy of the default branch (see `HistoryCache`). `now` tells what is too recent to stamp.
  static func take(
    of repository: Repository, root: String, includingOrigin: Bool = false, now: PathStamp.Timestamp = .now
  ) -> RepositoryStamp? {
    guard let home = environment("HOME") else { return nil }
    let gitDirectory = repository.gitDirectory
    let common = repository.commonDirectory
    var stamp = RepositoryStamp(entries: [])
    func add(_ path: String, _ kind: PathStamp.Kind = .full) {
      stamp.entries.append((path, PathStamp(path: path, kind: kind)))
    }
    // The two folders guard the absent paths in them (see `PathStamp.Kind.guarding`): stamped before those paths,
    // so that a path made there after its look changes the folder's times; only which folder they are when their
    // times are too recent to tell.
    func guarding(_ folder: PathStamp) -> PathStamp { folder.isRacy(now: now) ? folder.node : folder }
    stamp.entries.append((root, guarding(PathStamp(path: root, kind: .guarding))))
    // One look: a folder's full stamp is its guarding one (a `.git` file, a linked worktree's, is stamped whole).
    var dotGit = PathStamp(path: root + "/.git", kind: .full)
    if dotGit.isFolder {
      dotGit.kind = .guarding
      dotGit = guarding(dotGit)
    }
    stamp.entries.append((root + "/.git", dotGit))
    add(gitDirectory + "/HEAD")
    add(gitDirectory + "/commondir")
    add(gitDirectory + "/config.worktree")
    add(common + "/packed-refs")
    add(common + "/shallow")
    add(common + "/reftable")
    let configs = [common + "/config", gitDirectory + "/config.worktree"] + globalConfigFiles(home: home)
    for config in configs where config != gitDirectory + "/config.worktree" { add(config) }
    if let workingDirectory = repository.workingDirectory { add(workingDirectory + "/.mailmap") }
    guard addRefs(common + "/refs/heads", to: &stamp) else { return nil }
    if includingOrigin {
      add(common + "/refs")
      add(common + "/refs/remotes")
      guard addRefs(common + "/refs/remotes/origin", to: &stamp, isOrigin: true) else { return nil }
    }
    // Checked before anything is read: in a busy repository the refs have just moved, and nothing more is spent.
    guard stamp.entries.allSatisfy({ !$0.stamp.isRacy(now: now) }) else { return nil }
    if let file = repository.configString("mailmap.file") {
      guard file.hasPrefix("/") else { return nil }
      add(file)
      guard !stamp.entries[stamp.entries.count - 1].stamp.isRacy(now: now) else { return nil }
    }
    guard repository.configString("mailmap.blob") == nil else { return nil }
    guard stamp.entries.first(where: { $0.path == common + "/reftable" })?.stamp.kind == .absent else { return nil }
    guard libgit2ConfigFiles.allSatisfy(configs.contains) else { return nil }
    for config in configs {
      guard let text = contents(config), !text.lowercased().contains(text: "include") else { return nil }
    }
    guard isLocalBranchOrDetached(contents(gitDirectory + "/HEAD")) else { return nil }
    return stamp
  }

  /// The global, XDG and system config files, for `home` and `XDG_CONFIG_HOME`, whether they exist or not.
  static func globalConfigFiles(home: String) -> [String] {
    [home + "/.gitconfig", (environment("XDG_CONFIG_HOME") ?? home + "/.config") + "/git/config", "/etc/gitconfig"]
  }

  /// A digest of every path with its stamp (`TextDigest`): equal while every path stamps as it did, for a cache that
  /// keeps only that (`HistoryCache`).
  var digest: String {
    var digest = TextDigest.Builder()
    digest.add("repository-stamp-1")
    for (path, stamp) in entries {
      digest.add(path)
      let kind: Int64
      switch stamp.kind {
      case .absent: kind = 0
      case .node: kind = 1
      case .full: kind = 2
      case .guarding: kind = 3
      }
      digest.add(kind)
      digest.add(stamp.isNameFree)
      digest.add(stamp.isFolder)
      digest.add(Int64(bitPattern: stamp.device))
      digest.add(Int64(bitPattern: stamp.inode))
      digest.add(stamp.size)
      digest.add(stamp.modified.seconds)
      digest.add(stamp.modified.nanoseconds)
      digest.add(stamp.changed.seconds)
      digest.add(stamp.changed.nanoseconds)
    }
    return digest.hex
  }

  /// Adds `folder` and everything below it; false when a file in it is a symbolic ref to something not stamped:
  /// outside `refs/heads`, or for origin's refs (`isOrigin`, whose HEAD names one of origin's branches) outside
  /// `refs/remotes/origin` and `refs/heads`.
  private static func addRefs(_ folder: String, to stamp: inout RepositoryStamp, isOrigin: Bool = false) -> Bool {
    let folderStamp = PathStamp(path: folder, kind: .full)
    stamp.entries.append((folder, folderStamp))
    guard folderStamp.kind != .absent else { return true }
    // The folder opened once, its entries looked up by name in it: the kernel walks one component for each, where a
    // whole path cost it one per component (a clone with its 5,000 pull requests as branches).
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return true }
    defer { close(descriptor) }
    let listing = dup(descriptor)
    guard listing >= 0, let directory = fdopendir(listing) else {
      if listing >= 0 { close(listing) }
      return true
    }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name != "." && name != ".." { names.append(name) }
    }
    closedir(directory)
    names.sort()
    // Thousands of them are stamped on several threads.
    let stamps = SideThreads.map(names, runsOfAtLeast: entriesPerThread) { run in
      run.map { name in
        var name = name
        return name.withUTF8 { PathStamp(pathBytes: UnsafeRawBufferPointer($0)[...], in: descriptor, kind: .full) }
      }
    }
    for (name, entry) in zip(names, stamps) {
      let path = folder + "/" + name
      if entry.isFolder {
        guard addRefs(path, to: &stamp, isOrigin: isOrigin) else { return false }
        continue
      }
      stamp.entries.append((path, entry))
      // A ref holding an id is 41 bytes (SHA-1) or 65 (SHA-256); anything else is read to see where it points.
      if entry.size != 41 && entry.size != 65 {
        let text = contents(path)
        guard isLocalBranchOrDetached(text) || (isOrigin && text?.hasPrefix("ref: refs/remotes/origin/") == true)
        else { return false }
      }
    }
    return true
  }

  /// How many entries of one folder make a thread of their own: each is a `fstatat` (about 2 µs), and a thread
  /// starts in 20 to 100 µs.
  static let entriesPerThread = 512

  /// True for the contents of HEAD or a ref that holds an id or names a local branch (nil: unreadable).
  private static func isLocalBranchOrDetached(_ text: String?) -> Bool {
    guard let text else { return false }
    return !text.hasPrefix("ref:") || text.hasPrefix("ref: refs/heads/")
  }

  /// The global, XDG and system config files libgit2 reads, where they exist: found once per process, as libgit2
  /// itself finds them once.
  private static let libgit2ConfigFiles: [String] = {
    LibGit2.ensureInitialized()
    let finders = [git_config_find_global, git_config_find_xdg, git_config_find_system]
    return finders.compactMap { find in
      var buffer = git_buf()
      defer { git_buf_dispose(&buffer) }
      guard find(&buffer) == 0, let path = buffer.ptr else { return nil }
      return String(cString: path)
    }
  }()

  /// The file's text, empty when there is none, nil when it cannot be read.
  private static func contents(_ path: String) -> String? {
    do throws(SystemError) { return try AtomicFile.read(path) ?? "" } catch { return nil }
  }

  private static func environment(_ name: String) -> String? {
    guard let value = getenv(name), value.pointee != 0 else { return nil }
    return String(cString: value)
  }
}
