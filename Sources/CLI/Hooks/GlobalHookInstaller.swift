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

/// `install --global` and `uninstall --global`: a hooks folder of gitjournal's own, named by git's global
/// `core.hooksPath`, so every repository the user commits in runs gitjournal's hook (see `GlobalHookScript`).
///
/// Everything lives in `${XDG_DATA_HOME:-~/.local/share}/gitjournal/global`: `hooks/`, the git config file that
/// sets `core.hooksPath` (`gitconfig`), and `install.tsv`, which records the bytes appended to the user's global
/// git config, so that `uninstall` removes exactly those.
struct GlobalHookInstaller {
  let environment: Environment
  let executable: String
  /// The config file the hooks read, as for a repository's own hooks.
  let configPath: String

  var folder: String {
    let base = environment.variables["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
    return (base ?? environment.home + "/.local/share") + "/gitjournal/global"
  }

  var hooksFolder: String { folder + "/hooks" }
  private var includedPath: String { folder + "/gitconfig" }
  private var recordPath: String { folder + "/install.tsv" }

  /// What `install.tsv` says: the global git config file changed, the bytes appended to it, whether it was
  /// created, and the `core.hooksPath` it had before.
  struct Record: Equatable {
    let configFile: String
    let addition: GlobalGitConfig.Addition
    let previous: String?
  }

  func record() -> Record? {
    var fields: [String: String] = [:]
    StateFile.read(recordPath) { record in
      if record.count == 2 { fields[record.text(0)] = record.text(1) }
      return true
    }
    guard let file = fields["config"], let added = fields["added"], let created = fields["created"] else { return nil }
    return Record(
      configFile: file, addition: GlobalGitConfig.Addition(bytes: Array(added.utf8), created: created == "1"),
      previous: fields["previous"])
  }

  struct Installation {
    let configFile: String
    let previous: String?
    /// Already installed: the scripts were brought up to date.
    let wasInstalled: Bool
  }

  func install() throws -> Installation {
    let gitConfig = GlobalGitConfig(environment: environment)
    if let record = record() {
      try writeScripts(previous: record.previous)
      try writeIncludedFile()
      return Installation(configFile: record.configFile, previous: record.previous, wasInstalled: true)
    }
    var previous = gitConfig.hooksPath()
    if previous.map({ environment.absolute($0) }) == hooksFolder { previous = nil }
    for path in [hooksFolder, executable, configPath] + (previous.map { [$0] } ?? [])
    where path.contains(where: \.isNewline) {
      throw GlobalHookError.newlineInPath(path: path)
    }
    try writeScripts(previous: previous)
    try writeIncludedFile()
    let configFile = gitConfig.path
    let addition = try gitConfig.append(GlobalGitConfig.block(including: includedPath))
    var records = [
      ["config", configFile], ["added", String(decoding: addition.bytes, as: UTF8.self)],
      ["created", addition.created ? "1" : "0"],
    ]
    if let previous { records.append(["previous", previous]) }
    do {
      _ = try AtomicFile.write(bytes: StateFile.bytes(of: records), to: recordPath, unlessChangedFrom: nil)
    } catch {
      _ = try? gitConfig.remove(addition, from: configFile)
      throw error
    }
    return Installation(configFile: configFile, previous: previous, wasInstalled: false)
  }

  private func writeScripts(previous: String?) throws {
    try makeFolders(hooksFolder)
    for name in GlobalHookScript.hookNames {
      let script = GlobalHookScript.render(
        name: name, executable: executable, configPath: configPath, previous: previous)
      try AtomicFile.write(script, to: hooksFolder + "/" + name, mode: 0o755)
    }
  }

  private func writeIncludedFile() throws {
    try AtomicFile.write(GlobalGitConfig.includedText(folder: hooksFolder), to: includedPath)
  }

  struct Removal {
    let configFile: String
    let previous: String?
    /// Files found in the hooks folder that gitjournal did not write, left there with the folder.
    let foreignFiles: [String]
  }

  /// Removes the appended lines, then the folder; nil when the global hook is not installed.
  func uninstall() throws -> Removal? {
    guard let record = record() else { return nil }
    let gitConfig = GlobalGitConfig(environment: environment)
    if try !gitConfig.remove(record.addition, from: record.configFile) {
      // Edited by hand: only a include of gitjournal's file still in place is a problem.
      if gitConfig.hooksPath() == hooksFolder {
        throw GlobalHookError.linesChanged(path: record.configFile, included: includedPath)
      }
    }
    var foreign: [String] = []
    let names = (try? FileManager.default.contentsOfDirectory(atPath: hooksFolder)) ?? []
    for name in names.sorted() {
      let path = hooksFolder + "/" + name
      if let text = try? AtomicFile.read(path), GlobalHookScript.isGlobalHook(text) {
        guard unlink(path) == 0 else { throw SystemError("remove", path: path) }
      } else {
        foreign.append(path)
      }
    }
    for path in [includedPath, recordPath] where unlink(path) != 0 && errno != ENOENT {
      throw SystemError("remove", path: path)
    }
    if foreign.isEmpty {
      // The folders too, gitjournal's data folder included when nothing else is in it.
      for path in [hooksFolder, folder, PathText.folder(of: folder)] { rmdir(path) }
    }
    return Removal(configFile: record.configFile, previous: record.previous, foreignFiles: foreign)
  }
}

extension GlobalHookInstaller {
  /// One line for each repository of `paths` that has a `core.hooksPath` of its own without gitjournal's hooks:
  /// git runs that folder's hooks there, never the global ones.
  func uncoveredLines(_ paths: [String]) -> [(path: String, line: String)] {
    var lines: [(path: String, line: String)] = []
    for path in paths {
      do {
        let folder = try HookInstaller.hooksFolder(of: path, home: environment.home)
        guard folder.fromHooksPath, folder.path != hooksFolder, !HookInstaller.isInstalled(.postCommit, in: folder.path)
        else { continue }
        lines.append(
          (
            path,
            "\(path) has its own core.hooksPath (\(folder.path)), so the global hook does not run there: "
              + "run 'gitjournal install \(path)' to journal it"
          ))
      } catch .hooksPathInsideRepository(let folder, _) {
        lines.append(
          (
            path,
            "\(path) has its own core.hooksPath (\(folder)), kept by a hook manager such as husky, so the global "
              + "hook does not run there: 'gitjournal install \(path)' says which lines to add to its hooks"
          ))
      } catch {
        continue
      }
    }
    return lines
  }
}

/// Why the global hook cannot be installed or removed, with what to do.
enum GlobalHookError: Error, CustomStringConvertible {
  case changedMeanwhile(path: String)
  case linesChanged(path: String, included: String)
  case newlineInPath(path: String)

  var description: String {
    switch self {
    case .changedMeanwhile(let path):
      return "\(path) changed while gitjournal was writing it; nothing was changed, try again"
    case .linesChanged(let path, let included):
      return "the lines 'gitjournal install --global' added to \(path) were edited since; remove the [include] "
        + "whose path is \(included) by hand, then run 'gitjournal uninstall --global' again"
    case .newlineInPath(let path):
      return "the path \(path.debugDescription) holds a line break, which a git config value cannot"
    }
  }
}
