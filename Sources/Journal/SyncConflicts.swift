import Facts
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The copies sync tools make of a day's file when two machines changed it before the tool carried either change:
/// Syncthing's `YYYY-MM-DD.sync-conflict-<date>-<time>-<device>.md`, Dropbox's `YYYY-MM-DD (<who>'s conflicted
/// copy <date>).md`, iCloud Drive's `YYYY-MM-DD 2.md`. The facts in a copy are in the machines' records already;
/// what only the copy may hold is the user's text, so the text of a copy outside its block that the day's file
/// lacks is added at the end of the file, and the copy is moved to `.gitjournal/conflicts/`, never deleted.
struct SyncConflicts: Sendable {
  let journalDirectory: String

  var folder: String { journalDirectory + "/.gitjournal/conflicts" }

  /// Whether `name` is a sync tool's copy of the page `pageName` (`YYYY-MM-DD`, `YYYY-Www`, `YYYY-MM`).
  static func isCopy(_ name: String, of pageName: String) -> Bool {
    let base = pageName
    guard name.hasPrefix(base), name.hasSuffix(".md") else { return false }
    let middle = name.dropFirst(base.count).dropLast(3)
    if middle.hasPrefix(".sync-conflict-") { return true }
    if middle.hasPrefix(" ("), middle.hasSuffix(")"), middle.contains(text: "conflicted copy") { return true }
    if middle.hasPrefix(" "), middle.count > 1, middle.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) {
      return true
    }
    return false
  }

  /// Every copy of a page waiting in the journal folder (`doctor`), with the page's name, sorted.
  func allCopies() -> [(name: String, page: String)] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: journalDirectory)) ?? []
    return names.compactMap { name in
      // A day's, a week's (`2026-W49`) or a month's (`2026-11`) page.
      for length in [10, 8, 7] where name.count > length {
        let page = String(name.prefix(length))
        let isPage = Day(iso: page) != nil || (length == 8 && page.dropFirst(4).hasPrefix("-W")) || length == 7
        if isPage && page.prefix(4).allSatisfy(\.isNumber) && Self.isCopy(name, of: page) { return (name, page) }
      }
      return nil
    }.sorted { $0.name < $1.name }
  }

  /// The copies already merged and kept.
  func keptCopies() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  /// The most bytes of a copy that are merged: a copy is a day's page, a few kilobytes; a larger one is left where it
  /// is, unread, so that no file from another machine makes a commit wait on its merge.
  static let largestCopy = 4 << 20

  /// `text` (the day's file, nil when there is none) with the user's text from each copy that it lacks, in the
  /// copies' order, each copy's part after a line naming it. Deterministic, so machines that merge the same copies
  /// into the same file write the same bytes; and a paragraph the file holds already is not added again, so a copy
  /// of a file that already took a copy's text adds nothing. The paragraphs held are a hashed set, so the merge takes
  /// time in proportion to the text, however many paragraphs the copies hold.
  /// A copy that is a symlink, no regular file, or larger than `largestCopy` is neither read nor merged: it is left
  /// out of `taken` (what `keep` then moves aside), with a line in `refused`.
  func merging(
    _ names: [String], into text: String?
  ) -> (text: String?, taken: [String]) {
    // The usual case, every commit: no copy, and the page's paragraphs are not even listed.
    guard !names.isEmpty else { return (text, []) }
    var result = text
    var taken: [String] = []
    var present = Set(Self.paragraphs(of: Self.userText(of: text ?? "")))
    for name in names {
      let path = journalDirectory + "/" + name
      let contents: AtomicFile.Contents?
      do throws(SystemError) {
        // Not following a symlink: a link in the journal folder would merge any file it names into a page that
        // then syncs to every machine.
        contents = try AtomicFile.readOwnFile(path, largest: Self.largestCopy)
      } catch {
        RefusedInputs.note(Self.refusal(of: path, error), about: path)
        continue
      }
      guard let contents else { continue }
      taken.append(name)
      let missing = Self.paragraphs(of: Self.userText(of: String(decoding: contents.bytes, as: UTF8.self))).filter {
        !present.contains($0)
      }
      guard !missing.isEmpty else { continue }
      present.formUnion(missing)
      let header = "<!-- gitjournal: merged from the sync conflict copy \(name) -->"
      present.insert(header)
      var merged = result ?? ""
      if !merged.isEmpty && !merged.hasSuffix("\n") { merged += "\n" }
      if !merged.isEmpty { merged += "\n" }
      merged += header + "\n\n"
      merged += missing.joined(separator: "\n\n") + "\n"
      result = merged
    }
    return (result, taken)
  }

  /// The line that says why the copy at `path` was left alone, and what to do.
  private static func refusal(of path: String, _ error: SystemError) -> String {
    let why: String
    switch error.errorNumber {
    case ELOOP: why = "it is a symlink, and gitjournal follows none inside the journal folder"
    case EFBIG: why = "it is larger than the \(largestCopy >> 20) MB gitjournal merges"
    default: why = error.description
    }
    return "left the sync conflict copy \(path) alone, unmerged: \(why); merge it by hand or remove it"
  }

  /// Moves the copies into the conflicts folder. A copy whose exact bytes are kept there already is one of them.
  /// Nothing is moved through a symlink in the conflicts folder's place, or `.gitjournal`'s: the copies then wait,
  /// with a line in `RefusedInputs`.
  func keep(_ names: [String]) {
    guard !names.isEmpty else { return }
    if let link = FolderLinks.firstLink(in: folder, below: journalDirectory) {
      RefusedInputs.note(
        "left the merged sync conflict copies where they are: \(FolderLinks.refusal(of: link))", about: link)
      return
    }
    guard (try? makeFolders(folder)) != nil else { return }
    for name in names {
      let source = journalDirectory + "/" + name
      var target = folder + "/" + name
      var number = 1
      var info = stat()
      while lstat(target, &info) == 0 {
        // Compared without following a link on either side.
        if let kept = (try? AtomicFile.readOwnFile(target)) ?? nil,
          let copy = (try? AtomicFile.readOwnFile(source)) ?? nil, kept.bytes == copy.bytes
        {
          unlink(source)
          break
        }
        target = folder + "/" + name + ".\(number)"
        number += 1
      }
      if access(source, F_OK) == 0 { rename(source, target) }
    }
  }

  /// The text of a journal file outside the managed block and the front matter.
  static func userText(of text: String) -> String {
    let body = JournalMerger.splitFrontMatter(text).body
    var lines = JournalMerger.lines(of: body)
    if let found = JournalMerger.findBlock(in: lines) { lines.removeSubrange(found.begin...found.end) }
    return lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }.joined(separator: "\n")
  }

  /// Blocks of lines between blank lines, each without its surrounding blank lines.
  static func paragraphs(of text: String) -> [String] {
    var paragraphs: [String] = []
    var current: [String] = []
    for line in JournalMerger.lines(of: text) {
      if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
        if !current.isEmpty { paragraphs.append(current.joined(separator: "\n")) }
        current = []
      } else {
        current.append(line)
      }
    }
    if !current.isEmpty { paragraphs.append(current.joined(separator: "\n")) }
    return paragraphs
  }
}
