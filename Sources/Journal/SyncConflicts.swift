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

  /// `text` (the day's file, nil when there is none) with the user's text from each copy that it lacks, in the
  /// copies' order, each copy's part after a line naming it. Deterministic, so machines that merge the same copies
  /// into the same file write the same bytes; and a paragraph the file holds already is not added again, so a copy
  /// of a file that already took a copy's text adds nothing.
  func merging(_ names: [String], into text: String?) -> String? {
    var result = text
    for name in names {
      guard let data = FileManager.default.contents(atPath: journalDirectory + "/" + name) else { continue }
      let present = Self.userText(of: result ?? "")
      let missing = Self.paragraphs(of: Self.userText(of: String(decoding: data, as: UTF8.self))).filter {
        !present.contains($0)
      }
      guard !missing.isEmpty else { continue }
      var merged = result ?? ""
      if !merged.isEmpty && !merged.hasSuffix("\n") { merged += "\n" }
      if !merged.isEmpty { merged += "\n" }
      merged += "<!-- gitjournal: merged from the sync conflict copy \(name) -->\n\n"
      merged += missing.joined(separator: "\n\n") + "\n"
      result = merged
    }
    return result
  }

  /// Moves the copies into the conflicts folder. A copy whose exact bytes are kept there already is one of them.
  func keep(_ names: [String]) {
    guard !names.isEmpty, (try? makeFolders(folder)) != nil else { return }
    for name in names {
      let source = journalDirectory + "/" + name
      var target = folder + "/" + name
      var number = 1
      while FileManager.default.fileExists(atPath: target) {
        if FileManager.default.contentsEqual(atPath: source, andPath: target) {
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
