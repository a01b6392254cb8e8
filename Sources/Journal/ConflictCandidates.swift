import Facts
import Support

/// The names in the journal folder that could be a sync tool's copy of a page, listed once per process and then
/// asked for each page written: the folder holds a file per day, and listing it for every page made a rebuild
/// read it once per day. A copy that a sync tool makes while this process runs waits for the next one. The same
/// listing tells which pages have a temporary file a killed writer left (`takeLeftover`).
final class ConflictCandidates: Sendable {
  private let directory: String
  private struct Listing {
    /// The candidates; nil until the folder is listed.
    var names: [String]?
    var leftovers: Set<String> = []
  }
  // The journal's writers may run on several threads of one process.
  private let listing = Locked(Listing())

  init(directory: String) {
    self.directory = directory
  }

  /// Whether the folder holds no copy of any page and no temporary file left behind: the usual case, in which
  /// nothing is looked for page by page.
  var isEmpty: Bool {
    listing.withLock { listing in listed(&listing).isEmpty && listing.leftovers.isEmpty }
  }

  /// The copies of the page `pageName`, sorted.
  func copies(of pageName: String) -> [String] {
    listing.withLock { listing in listed(&listing).filter { SyncConflicts.isCopy($0, of: pageName) }.sorted() }
  }

  /// Whether the listing holds the temporary file named `name` (`AtomicFile.lockedTemporaryName`) not yet taken.
  func hasLeftover(_ name: String) -> Bool {
    listing.withLock { listing in
      _ = listed(&listing)
      return listing.leftovers.contains(name)
    }
  }

  /// Whether the listing holds the temporary file named `name` (`AtomicFile.lockedTemporaryName`), which it then
  /// forgets: the caller removes it.
  func takeLeftover(_ name: String) -> Bool {
    listing.withLock { listing in
      _ = listed(&listing)
      return listing.leftovers.remove(name) != nil
    }
  }

  /// The candidates, the folder listed into `listing` on the first call.
  private func listed(_ listing: inout Listing) -> [String] {
    if let names = listing.names { return names }
    let all = FolderListing.names(in: directory, withPrefix: "")
    // Pages are named from their year: a copy begins with a digit too, the folder's other files need not.
    let candidates = all.filter { Self.isCandidate($0) }
    listing.leftovers = Set(all.filter { $0.hasPrefix(".") && $0.contains(text: AtomicFile.temporaryMarker) })
    listing.names = candidates
    return candidates
  }

  /// Forgets copies that were moved aside.
  func remove(_ moved: [String]) {
    listing.withLock { listing in listing.names?.removeAll { moved.contains($0) } }
  }

  /// Whether `name` may be a copy: a Markdown file whose name is longer than a page's own (`YYYY-MM-DD.md`,
  /// `YYYY-Www.md`, `YYYY-MM.md`) and that is not one of those.
  /// Looked at byte by byte: the folder holds a page for every day with commits, and comparing characters showed in
  /// a long rebuild's instructions (`bench/instructions.sh`). A name that is not ASCII is never a page's.
  private static func isCandidate(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    guard bytes.count > 3, bytes.suffix(3).elementsEqual(".md".utf8), isDigit(bytes[0]) else { return false }
    let stem = bytes.dropLast(3)
    let isPage: Bool
    switch stem.count {
    case 10: isPage = Day(fileName: name, suffix: ".md") != nil
    case 8: isPage = stem.dropFirst(4).starts(with: "-W".utf8)
    case 7:
      isPage =
        stem[stem.startIndex + 4] == UInt8(ascii: "-") && stem.allSatisfy { isDigit($0) || $0 == UInt8(ascii: "-") }
    default: isPage = false
    }
    return !isPage
  }
}
