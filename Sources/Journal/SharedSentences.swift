import Facts
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The model's sentences, shared between machines through the journal folder: whichever machine narrates a page
/// (a day, a week, a month), the others find the sentence for the same facts here and show it too, so every machine
/// renders the page alike. Each machine writes only its own files, `<records>/<host>/sentences/<page>.tsv`
/// (`2026-11-30.tsv`, `2026-W49.tsv`, `2026-12.tsv`), and only when it has a sentence the file lacks; when several
/// machines wrote one for the same facts, the first machine by name wins.
///
/// One `StateFile`: `sentences <format> <page>`, then up to `kept` records `sentence <facts signature> <text>`,
/// newest last, then `end`. A cut or foreign file holds no sentence; one larger than `largestFile` is refused. A
/// sentence found here is another machine's word (or anyone's who can write to the synced folder), not a model's:
/// the caller puts it through the model's guard before any page shows it (`SharedSentenceGuard`).
struct SharedSentences: Sendable {
  let root: String
  let host: String
  private let machineFolders = MachineFolders()

  init(root: String, host: String) {
    self.root = root
    self.host = host
  }

  static let format: Int64 = 1
  /// The largest file read, in bytes: `kept` sentences of the guard's longest, with their signatures, fill a tenth.
  static let largestFile = 64 << 10
  /// Sentences kept per page and machine: a page's facts change with each commit, and older facts come back only
  /// when a commit goes away again.
  static let kept = 8

  private func path(of page: String, host: String) -> String { root + "/" + host + "/sentences/\(page).tsv" }

  /// The machines that shared a sentence, by name.
  private func machines() -> [String] {
    machineFolders.names {
      // No sentence is read through a symlink: not `root`, a machine's folder, nor its `sentences`.
      let base = PathText.folder(of: root)
      return FolderListing.folders(in: root).filter {
        HostName.isValid($0) && access(root + "/" + $0 + "/sentences", F_OK) == 0
          && FolderLinks.firstLink(in: root + "/" + $0 + "/sentences", below: base) == nil
      }.sorted()
    }
  }

  /// `page` is named only when some machine shared a sentence.
  func hasAny(of page: @autoclosure () -> String) -> Bool {
    let machines = machines()
    guard !machines.isEmpty else { return false }
    let name = page()
    return machines.contains { access(path(of: name, host: $0), F_OK) == 0 }
  }

  func sentence(of page: String, signature: String) -> String? {
    for machine in machines() {
      if let sentence = Self.read(path(of: page, host: machine), page: page).first(where: { $0.signature == signature })
      {
        return sentence.text
      }
    }
    return nil
  }

  func share(_ sentence: String, of page: String, signature: String) {
    let path = path(of: page, host: host)
    guard FolderLinks.firstLink(in: PathText.folder(of: path), below: PathText.folder(of: root)) == nil else { return }
    var entries = Self.read(path, page: page)
    guard !entries.contains(where: { $0.signature == signature && $0.text == sentence }) else { return }
    entries.removeAll { $0.signature == signature }
    entries.append((signature, sentence))
    let records =
      [["sentences", String(Self.format), page]] + entries.suffix(Self.kept).map { ["sentence", $0, $1] }
      + [["end"]]
    // A sentence lost to a crash is asked for again: no fsync.
    try? StateFile.write(records, to: path)
    // This machine may have shared its first sentence just now.
    machineFolders.forget()
  }

  private static func read(_ path: String, page: String) -> [(signature: String, text: String)] {
    let contents: AtomicFile.Contents?
    do {
      // Not following a symlink in its place, as `StateFile.read` reads.
      contents = try AtomicFile.readOwnFile(path, largest: largestFile)
    } catch {
      if error.errorNumber == EFBIG {
        RefusedInputs.note("refused the shared sentences \(path): \(error)", about: path)
      }
      return []
    }
    guard let bytes = contents?.bytes else { return [] }
    var entries: [(signature: String, text: String)] = []
    var isHeaderRead = false
    var isComplete = false
    StateFile.read(bytes: bytes) { record in
      switch (record.text(0), isHeaderRead) {
      case ("sentences", false) where record.count == 3:
        isHeaderRead = record.integer(1) == format && record.text(2) == page
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

/// The folders of the machines that shared a sentence, listed once per process: the hook looks for a day's, a week's
/// and a month's shared sentence, and one listing serves all three; with no sentence anywhere (no model on any
/// machine) the week's and the month's cost no system call at all. Another machine's first sentence that arrives
/// later is seen by the next process; this machine's own, at once.
private final class MachineFolders: Sendable {
  // The journal's writers may run on several threads of one process.
  private let listed = Locked<[String]?>(nil)

  func names(_ list: () -> [String]) -> [String] {
    listed.withLock { kept in
      if let kept { return kept }
      let made = list()
      kept = made
      return made
    }
  }

  func forget() { listed.withLock { $0 = nil } }
}
