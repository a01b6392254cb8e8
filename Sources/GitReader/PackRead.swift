/// What `PackReader` made of an object: its bytes; not its to read (not in the packs it reads, or larger than it
/// reads), which libgit2 then reads; or damaged, which libgit2 is never asked for: it dies on an index offset
/// outside the pack (SIGBUS) and allocates without bound on a delta that names itself.
enum PackRead {
  case object(RawObject)
  case elsewhere
  /// What is wrong, as a clause: "its index entry points outside the pack".
  case damaged(String)

  /// The object, when it was read.
  var found: RawObject? {
    if case .object(let object) = self { object } else { nil }
  }
}
