import CLibgit2
import Support

/// A repository's mailmap (`.mailmap`, `mailmap.file`, `mailmap.blob`); freed with the object.
final class Mailmap {
  private let pointer: OpaquePointer

  /// Takes ownership of a mailmap libgit2 read (see `Repository.mailmap()`).
  init(pointer: OpaquePointer) { self.pointer = pointer }

  deinit { git_mailmap_free(pointer) }

  /// The real name and email for an author's `name` and `email`, as `git log`'s `%aN` and `%aE` show them:
  /// the input itself when no entry matches. The results point into the mailmap or the input: read them
  /// while both live.
  func resolve(name: UnsafePointer<CChar>, email: UnsafePointer<CChar>) -> (
    UnsafePointer<CChar>?, UnsafePointer<CChar>?
  ) {
    var realName: UnsafePointer<CChar>?
    var realEmail: UnsafePointer<CChar>?
    guard git_mailmap_resolve(&realName, &realEmail, pointer, name, email) == 0 else { return (name, email) }
    return (realName ?? name, realEmail ?? email)
  }
}
