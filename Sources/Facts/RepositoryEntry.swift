import Support

/// One configured repository.
public struct RepositoryEntry: Equatable, Sendable {
  public var name: String
  public var path: String
  public var isPrivate: Bool
  /// When the repository was retired (`gitjournal uninstall`, `repos remove`), in seconds since 1970: commits
  /// authored before stay in the journal, later ones are not journaled. Nil for a repository still journaled.
  public var retiredAt: Int64?
  /// Files of this repository left out of the counts, besides `journal.excludePaths` (`repo.<name>.excludePaths`).
  public var excludePaths: [String] = []

  public init(name: String, path: String, isPrivate: Bool, retiredAt: Int64? = nil) {
    self.name = name
    self.path = path
    self.isPrivate = isPrivate
    self.retiredAt = retiredAt
  }

  public var isRetired: Bool { retiredAt != nil }

  /// The folder's name, or for a bare `x.git` repository `x`. Control characters (a newline in a folder's
  /// name) become spaces: a config subsection cannot hold them.
  public static func defaultName(forPath path: String) -> String {
    var name = PathText.name(of: path)
    if name == ".git" { name = PathText.name(of: PathText.folder(of: path)) }
    if name.hasSuffix(".git") && name.count > 4 { name.removeLast(4) }
    name = String(
      String.UnicodeScalarView(
        name.unicodeScalars.map { (scalar: Unicode.Scalar) -> Unicode.Scalar in
          scalar.properties.generalCategory == .control ? " " : scalar
        }))
    return name.isEmpty ? "repository" : name
  }
}
