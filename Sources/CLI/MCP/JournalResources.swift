import Facts
import Journal
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The MCP server's resources: the journal's day, week and month pages as they are in the journal folder, each
/// with a private project's commit lines replaced by their count. `gitjournal://day/2026-03-10`,
/// `gitjournal://week/2026-W11`, `gitjournal://month/2026-03`.
struct JournalResources: Sendable {
  let environment: Environment

  /// How many pages one `resources/list` answer holds; a journal holds thousands.
  static let pageSize = 100
  /// The largest page read: a journal page is a few kilobytes.
  static let largestPage = 4 << 20
  static let scheme = "gitjournal://"

  /// A page of the journal folder.
  enum Page: Equatable, Comparable {
    case day(Day)
    case week(String)
    case month(Month)

    /// From a file's name without `.md`, or a URI's last part; nil for anything else.
    init?(kind: String, name: String) {
      let bytes = Array(name.utf8)
      func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { (0x30...0x39).contains(bytes[$0]) } }
      switch kind {
      case "day":
        guard let day = Day(iso: name) else { return nil }
        self = .day(day)
      case "week":
        guard bytes.count == 8, digits(0..<4), bytes[4] == UInt8(ascii: "-"), bytes[5] == UInt8(ascii: "W"),
          digits(6..<8), let number = Int(name.suffix(2)), (1...53).contains(number)
        else { return nil }
        self = .week(name)
      case "month":
        guard bytes.count == 7, digits(0..<4), bytes[4] == UInt8(ascii: "-"), digits(5..<7),
          let day = Day(iso: name + "-01")
        else { return nil }
        self = .month(Month(containing: day))
      default: return nil
      }
    }

    init?(fileName: String) {
      guard fileName.hasSuffix(".md") else { return nil }
      let name = String(fileName.dropLast(3))
      guard
        let page = Self(kind: "day", name: name) ?? Self(kind: "week", name: name) ?? Self(kind: "month", name: name)
      else { return nil }
      self = page
    }

    var kind: String {
      switch self {
      case .day: "day"
      case .week: "week"
      case .month: "month"
      }
    }

    var name: String {
      switch self {
      case .day(let day): day.description
      case .week(let name): name
      case .month(let month): month.description
      }
    }

    var uri: String { JournalResources.scheme + kind + "/" + name }

    /// Days first, then weeks, then months; the newest first in each.
    static func < (lhs: Page, rhs: Page) -> Bool {
      let order = ["day": 0, "week": 1, "month": 2]
      if lhs.kind != rhs.kind { return order[lhs.kind]! < order[rhs.kind]! }
      return lhs.name > rhs.name
    }
  }

  /// `resources/list`: a page of the journal's pages from `cursor` on, and the cursor of the next page, if any.
  func list(cursor: String?) throws(JSONRPCError) -> JSONValue {
    var offset = 0
    if let cursor {
      guard cursor.hasPrefix("p"), let number = Int(cursor.dropFirst()), number >= 0 else {
        throw .invalidParameter("cursor", "not a cursor a 'resources/list' answer gave")
      }
      offset = number
    }
    let configuration = try loadConfiguration()
    let pages = FolderListing.regularFiles(in: configuration.journalDirectory) { Page(fileName: $0) != nil }
      .compactMap { Page(fileName: $0) }.sorted()
    let shown = pages.dropFirst(offset).prefix(Self.pageSize)
    var result: [String: JSONValue] = [
      "resources": .array(
        shown.map { page in
          .object([
            "uri": .string(page.uri), "name": .string(page.name), "mimeType": .string("text/markdown"),
            "description": .string("The journal's \(page.kind) page \(page.name)"),
          ])
        })
    ]
    if offset + shown.count < pages.count { result["nextCursor"] = .string("p\(offset + shown.count)") }
    return .object(result)
  }

  /// `resources/templates/list`: how to name a page that may not be listed yet.
  static var templates: JSONValue {
    .object([
      "resourceTemplates": .array(
        [("day", "YYYY-MM-DD"), ("week", "YYYY-Www"), ("month", "YYYY-MM")].map { kind, form in
          .object([
            "uriTemplate": .string(scheme + kind + "/{\(kind)}"), "name": .string(kind),
            "description": .string("The journal's \(kind) page, named \(form)"),
            "mimeType": .string("text/markdown"),
          ])
        })
    ])
  }

  /// `resources/read`: the page's text, redacted.
  func read(uri: String) throws(JSONRPCError) -> JSONValue {
    let parts = uri.hasPrefix(Self.scheme) ? uri.dropFirst(Self.scheme.count).split(separator: "/") : []
    guard parts.count == 2, let page = Page(kind: String(parts[0]), name: String(parts[1])) else {
      throw .invalidParameter(
        "uri",
        "not a journal page: use gitjournal://day/YYYY-MM-DD, gitjournal://week/YYYY-Www or "
          + "gitjournal://month/YYYY-MM")
    }
    let configuration = try loadConfiguration()
    let journaling = Journaling(configuration: configuration, environment: environment)
    let path = journaling.store.path(ofPage: page.name)
    var info = stat()
    // lstat, and no symlink followed when read: a page linked to any file of the machine would hand that file to
    // the assistant.
    guard lstat(path, &info) == 0 else { throw .resourceNotFound }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw .internalError(
        "the page \(page.name) is not a regular file (a symlink?): gitjournal follows none inside the journal folder")
    }
    guard Int(info.st_size) <= Self.largestPage else {
      throw .internalError("the page \(page.name) is larger than \(Self.largestPage >> 20) MB: no journal page is")
    }
    let read: AtomicFile.Contents?
    do {
      read = try AtomicFile.readOwnFile(path, largest: Self.largestPage)
    } catch {
      throw .internalError("the page \(page.name) could not be read: \(error)")
    }
    guard let read else { throw .resourceNotFound }
    let file = String(decoding: read.bytes, as: UTF8.self)
    let redaction = PrivateRedaction(repositories: configuration.repositories)
    let days = days(of: page, weekStart: configuration.weekStart).compactMap { journaling.store.recordedFacts(of: $0) }
    var text = MarkdownText.neutralisingBidiControls(file)
    if case .day = page {
      // The configured projects that are not private count as known too: a file may predate the day's records.
      let configured = configuration.repositories.filter { !$0.isPrivate }.map(\.name)
        .filter { !redaction.privateNames.contains($0) }.map(MarkdownText.inline)
      text = PrivateRedaction.redactingSections(
        text, publicHeadings: redaction.publicHeadings(days).union(configured), headingLevel: 2)
    }
    text = PrivateRedaction.scrubbing(text, secrets: redaction.secrets(of: days))
    return .object([
      "contents": .array([.object(["uri": .string(uri), "mimeType": .string("text/markdown"), "text": .string(text)])])
    ])
  }

  /// The days whose records hold what a page shows.
  private func days(of page: Page, weekStart: Weekday) -> [Day] {
    switch page {
    case .day(let day): return [day]
    case .month(let month): return month.days
    case .week(let name):
      // The ISO week's Thursday is in the week of that name, whichever weekday weeks start on (see `Week`).
      guard let year = Int(name.prefix(4)), let number = Int(name.suffix(2)) else { return [] }
      let thursday = Week(containing: Day(year: year, month: 1, day: 4)).start.adding(days: (number - 1) * 7 + 3)
      let candidates = (-6...6).map { Week(containing: thursday.adding(days: $0), starting: weekStart) }
      return candidates.first { $0.description == name }?.days ?? []
    }
  }

  private func loadConfiguration() throws(JSONRPCError) -> Configuration {
    do {
      return try Configuration.load(environment)
    } catch {
      throw .internalError("error: \(error)")
    }
  }
}
