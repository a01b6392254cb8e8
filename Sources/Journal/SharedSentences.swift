import Facts
import Foundation
import Support

/// The model's sentences, shared between machines through the journal folder: whichever machine narrates a day,
/// the others find the sentence for the same facts here and show it too, so every machine renders the day alike.
/// Each machine writes only its own files, `<records>/<host>/sentences/YYYY-MM-DD.tsv`, and only when it has a
/// sentence the file lacks; when several machines wrote one for the same facts, the first machine by name wins.
///
/// One `StateFile`: `sentences <format> <YYYY-MM-DD>`, then up to `kept` records `sentence <facts signature>
/// <text>`, newest last, then `end`. A cut or foreign file holds no sentence.
struct SharedSentences: Sendable {
  let root: String
  let host: String

  static let format: Int64 = 1
  /// Sentences kept per day and machine: a day's facts change with each commit, and older facts come back only
  /// when a commit goes away again.
  static let kept = 8

  private func path(of day: Day, host: String) -> String { root + "/" + host + "/sentences/\(day).tsv" }

  private func machines() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter(HostName.isValid).sorted()
  }

  func hasAny(of day: Day) -> Bool {
    machines().contains { access(path(of: day, host: $0), F_OK) == 0 }
  }

  func sentence(of day: Day, signature: String) -> String? {
    for machine in machines() {
      if let sentence = Self.read(path(of: day, host: machine), day: day).first(where: { $0.signature == signature }) {
        return sentence.text
      }
    }
    return nil
  }

  func share(_ sentence: String, of day: Day, signature: String) {
    let path = path(of: day, host: host)
    var entries = Self.read(path, day: day)
    guard !entries.contains(where: { $0.signature == signature && $0.text == sentence }) else { return }
    entries.removeAll { $0.signature == signature }
    entries.append((signature, sentence))
    let records =
      [["sentences", String(Self.format), day.description]] + entries.suffix(Self.kept).map { ["sentence", $0, $1] }
      + [["end"]]
    // A sentence lost to a crash is asked for again: no fsync.
    try? StateFile.write(records, to: path)
  }

  private static func read(_ path: String, day: Day) -> [(signature: String, text: String)] {
    var entries: [(signature: String, text: String)] = []
    var isHeaderRead = false
    var isComplete = false
    StateFile.read(path) { record in
      switch (record.text(0), isHeaderRead) {
      case ("sentences", false) where record.count == 3:
        isHeaderRead = record.integer(1) == format && record.text(2) == day.description
        return isHeaderRead
      case ("sentence", true) where record.count == 3:
        entries.append((record.text(1), record.text(2)))
        return true
      case ("end", true):
        isComplete = true
        return false
      default:
        return false
      }
    }
    return isComplete ? entries : []
  }
}
