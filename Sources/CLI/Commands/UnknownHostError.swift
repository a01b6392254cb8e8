import Support

/// `--host` names a machine that never wrote to the journal: its share would be "No commits", which says nothing
/// true about it.
struct UnknownHostError: Error, CustomStringConvertible {
  let host: String
  let known: [String]
  let journalDirectory: String

  var description: String {
    "no machine named '\(host)' writes to the journal \(journalDirectory); --host takes one of "
      + known.joined(separator: ", ") + " ('gitjournal doctor' lists them)"
  }
}
