import Foundation

/// The `~/.gitconfig` every test HOME gets, written by one function for every fixture: an identity, `main` as
/// the first branch, and nothing of the machine's own settings that could change what git does (signing,
/// automatic gc, line-ending conversion, advice on stderr).
enum GitHome {
  static func configText(name: String, email: String) -> String {
    """
    [user]
    \tname = \(name)
    \temail = \(email)
    [init]
    \tdefaultBranch = main
    [gc]
    \tauto = 0
    [commit]
    \tgpgSign = false
    [advice]
    \tdetachedHead = false
    [core]
    \tautocrlf = false

    """
  }

  /// Writes `<home>/.gitconfig` for `name` and `email`, unless one is there already.
  static func write(home: String, name: String, email: String) throws {
    let path = home + "/.gitconfig"
    guard !FileManager.default.fileExists(atPath: path) else { return }
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    try Data(configText(name: name, email: email).utf8).write(to: URL(fileURLWithPath: path))
  }
}
