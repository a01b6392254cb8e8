import Facts
import GitReader
import Journal
import Narrative
import Support

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Puts gitjournal's hooks into the folder git really runs hooks from, and takes them out again, never
/// losing a hook that was there before: a foreign hook, or gitjournal's own edited by hand, is moved aside to
/// `<hook>.gitjournal-chained`, run first with its own exit status, and moved back byte for byte by `uninstall`.
struct HookInstaller {
  let executable: String
  /// The config file the hooks read (see `HookRunner`).
  let configPath: String

  /// Where git runs a repository's hooks from, and how that was decided.
  struct HooksFolder: Equatable {
    let path: String
    /// True when `core.hooksPath` chose it (locally or globally).
    let fromHooksPath: Bool
  }

  enum Change: Equatable {
    case installed
    /// A foreign hook was there; it now runs first, from `<hook>.gitjournal-chained`.
    case chained
    /// gitjournal's hook edited by hand was there: it is the user's, chained like a foreign one.
    case chainedEdited
    case updated
    case unchanged
  }

  enum Removal: Equatable {
    case removed
    /// Removed, and the hook gitjournal had chained is back in place.
    case restored
    /// gitjournal's hook, edited by hand since: the user's now, left as it is.
    case keptEdited
    case notInstalled
  }

  /// The hooks folder of the repository whose working tree (or git dir) is `repositoryPath`.
  static func hooksFolder(of repositoryPath: String, home: String) throws(HookError) -> HooksFolder {
    let repository: Repository
    do {
      repository = try Repository.open(at: repositoryPath)
    } catch {
      throw .notARepository(path: repositoryPath)
    }
    guard let workingDirectory = repository.workingDirectory, !repository.isBare else {
      throw .bare(path: repositoryPath)
    }
    if var configured = repository.configString("core.hooksPath"), !configured.isEmpty {
      if configured == "~" || configured.hasPrefix("~/") {
        configured = home + configured.dropFirst()
      }
      let path = configured.hasPrefix("/") ? configured : workingDirectory + "/" + configured
      let folder = PathText.standardized(path)
      // A hooks folder inside the working tree belongs to the project (husky's .husky, a tracked .githooks):
      // editing it would change files the project shares and its hook manager rewrites.
      if folder == workingDirectory || folder.hasPrefix(workingDirectory + "/") {
        throw .hooksPathInsideRepository(folder: folder, repository: workingDirectory)
      }
      return HooksFolder(path: folder, fromHooksPath: true)
    }
    return HooksFolder(path: repository.commonDirectory + "/hooks", fromHooksPath: false)
  }

  /// The repository a command-line argument names: `found` is the repository (or worktree) containing the path,
  /// `root` the one to register: the repository a linked worktree belongs to (its main working tree, or the bare
  /// repository), so a repository is journaled once whichever of its worktrees install and uninstall run in, and
  /// removing a linked worktree leaves no broken entry.
  static func repository(named path: String, environment: Environment) throws(HookError) -> (
    found: String, root: String
  ) {
    let absolute = environment.absolute(path)
    guard let found = Repository.discover(from: absolute) else {
      if let reason = Repository.unreadableReason(near: absolute) { throw .unreadable(reason: reason) }
      throw .notARepository(path: absolute)
    }
    return (found, Repository.mainRoot(of: found))
  }

  func install(_ hook: GitHook, into folder: String) throws -> Change {
    let path = folder + "/" + hook.rawValue
    let chained = path + HookScript.chainedSuffix
    let script = HookScript.render(hook: hook, executable: executable, configPath: configPath)
    try makeFolders(folder)

    guard let existing = try AtomicFile.read(path) else {
      try AtomicFile.write(script, to: path, mode: 0o755)
      return .installed
    }
    if HookScript.isUnedited(existing, hook: hook) {
      if existing.utf8.elementsEqual(script.utf8) { return .unchanged }
      try AtomicFile.write(script, to: path, mode: 0o755)
      return .updated
    }
    let edited = HookScript.isGitJournalHook(existing)
    guard access(chained, F_OK) != 0 else {
      throw HookError.chainedExists(hook: path, chained: chained, edited: edited)
    }
    // rename keeps the foreign hook's bytes, mode and owner exactly.
    guard rename(path, chained) == 0 else { throw SystemError("move aside", path: path) }
    do {
      try AtomicFile.write(script, to: path, mode: 0o755)
    } catch {
      rename(chained, path)
      throw error
    }
    return edited ? .chainedEdited : .chained
  }

  func uninstall(_ hook: GitHook, from folder: String) throws -> Removal {
    let path = folder + "/" + hook.rawValue
    let chained = path + HookScript.chainedSuffix
    guard let existing = try AtomicFile.read(path), HookScript.isGitJournalHook(existing) else {
      return .notInstalled
    }
    guard HookScript.isUnedited(existing, hook: hook) else { return .keptEdited }
    if access(chained, F_OK) == 0 {
      guard rename(chained, path) == 0 else { throw SystemError("restore", path: chained) }
      return .restored
    }
    guard unlink(path) == 0 else { throw SystemError("remove", path: path) }
    return .removed
  }

  /// True when gitjournal's hook is in place in `folder`.
  static func isInstalled(_ hook: GitHook, in folder: String) -> Bool {
    guard let text = try? AtomicFile.read(folder + "/" + hook.rawValue) else { return false }
    return HookScript.isGitJournalHook(text)
  }
}

/// Why a hook cannot be installed, with what to do instead.
public enum HookError: Error, CustomStringConvertible, Equatable {
  case notARepository(path: String)
  /// A repository is there, and libgit2 cannot open it (its object format, say): libgit2's words.
  case unreadable(reason: String)
  case bare(path: String)
  case hooksPathInsideRepository(folder: String, repository: String)
  case chainedExists(hook: String, chained: String, edited: Bool)

  public var description: String {
    switch self {
    case .notARepository(let path):
      return "\(path) is not inside a git repository"
    case .unreadable(let reason):
      return reason
    case .bare(let path):
      return "repository at \(path) is bare: nobody commits there, so it needs no hook "
        + "(add it with 'gitjournal repos add' to journal it)"
    case .hooksPathInsideRepository(let folder, let repository):
      return "core.hooksPath of \(repository) points at \(folder), which is part of the project and managed by "
        + "a hook manager such as husky; gitjournal will not edit it. Add the line 'gitjournal hook post-commit' "
        + "to that manager's post-commit hook and 'gitjournal hook post-rewrite \"$@\"' to its post-rewrite hook, "
        + "then run 'gitjournal repos add \(repository)'"
    case .chainedExists(let hook, let chained, let edited):
      let what = edited ? "is gitjournal's hook edited by hand" : "is not gitjournal's"
      return "\(hook) \(what), but \(chained) exists too; move one of them away, then install again"
    }
  }
}
