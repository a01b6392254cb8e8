#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A time zone's offsets from UTC over time, as the system's time zone files give them (TZif, RFC 8536, under
/// `/usr/share/zoneinfo` or `$TZDIR`): what `TZ`, `/etc/localtime` and `journal.timezone` name.
///
/// Read here rather than through Foundation's `TimeZone`, which needs ICU: loading a zone was a large part of every
/// hook, and linking ICU and corelibs Foundation costs every start its relocations (docs/architecture.md,
/// "Speed devices"). The files are the ones `date` and git read, so the journal's days are the days the rest of
/// the system shows.
public struct TimeZoneRules: Sendable, Equatable {
  /// The zone's name (`Europe/Paris`, `UTC`), or `localtime` for an `/etc/localtime` that names none.
  public let identifier: String
  /// The instants (seconds since 1970) at which the offset changes, ascending.
  private let transitions: [Int64]
  /// The offset (seconds east of UTC) from each transition on.
  private let offsets: [Int32]
  /// The offset before the first transition.
  private let initialOffset: Int32
  /// The offsets after the last transition (the file's footer, a POSIX `TZ` rule); nil keeps the last offset.
  private let rule: PosixRule?

  /// UTC, known without any file.
  public static let utc = TimeZoneRules(identifier: "UTC", offset: 0)

  /// A zone with one offset at every instant.
  public init(identifier: String, offset: Int32) {
    self.identifier = identifier
    transitions = []
    offsets = []
    initialOffset = offset
    rule = nil
  }

  /// The zone named `identifier` (`Europe/Paris`): its file in the zone folder, or UTC for `UTC`, `GMT` and their
  /// `Etc/` forms when there is no file. Nil for a name that is not a zone file's: an absolute path, `..`, or a
  /// character no zone name has.
  public init?(identifier: String, folder: String = TimeZoneRules.folder) {
    guard Self.isZoneName(identifier) else { return nil }
    if let rules = Self.read(file: folder + "/" + identifier, identifier: identifier) {
      self = rules
    } else if ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Zulu", "Etc/Zulu", "UCT", "Etc/UCT"].contains(identifier) {
      self.init(identifier: identifier, offset: 0)
    } else {
      return nil
    }
  }

  /// The folder of the zone files: `$TZDIR` when set, else `/usr/share/zoneinfo`.
  public static var folder: String {
    if let value = getenv("TZDIR"), value.pointee != 0 { return String(cString: value) }
    return "/usr/share/zoneinfo"
  }

  /// Whether `name` can name a zone file below the zone folder: relative, each component letters, digits, `_`,
  /// `-`, `+` or `.`, none of them `.` or `..`, at most 255 bytes.
  static func isZoneName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard !bytes.isEmpty, bytes.count <= 255 else { return false }
    for component in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
      guard !component.isEmpty, !component.elementsEqual(".".utf8), !component.elementsEqual("..".utf8) else {
        return false
      }
      let isAllowed = component.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"),
          UInt8(ascii: "."):
          true
        default: false
        }
      }
      guard isAllowed else { return false }
    }
    return true
  }

  /// The zone of the TZif file at `path` under the name `identifier`, or nil when it cannot be read or is not one.
  public static func read(file path: String, identifier: String) -> TimeZoneRules? {
    guard let bytes = readSmallFile(path) else { return nil }
    return TZif(bytes).flatMap { TimeZoneRules(identifier: identifier, tzif: $0) }
  }

  /// The zone a POSIX `TZ` rule describes (`CET-1CEST,M3.5.0,M10.5.0/3`, `EST5EDT`, `<+0330>-3:30`), named by it.
  public init?(posix text: String) {
    guard let rule = PosixRule(text) else { return nil }
    identifier = text
    transitions = []
    offsets = []
    initialOffset = rule.standardOffset
    self.rule = rule
  }

  private init(identifier: String, tzif: TZif) {
    self.identifier = identifier
    transitions = tzif.transitions
    offsets = tzif.offsets
    initialOffset = tzif.initialOffset
    rule = tzif.rule
  }

  /// The zone's name and a digest of its offsets (FNV-1a of every number that decides them, in hex): what a cache
  /// of rendered times is kept under, so that a different zone file under the same name (a new `/etc/localtime`
  /// copied in place) does not pass for the old one.
  public var fingerprint: String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func add(_ number: Int64) {
      withUnsafeBytes(of: number.littleEndian) { for byte in $0 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 } }
    }
    add(Int64(initialOffset))
    for (transition, offset) in zip(transitions, offsets) {
      add(transition)
      add(Int64(offset))
    }
    if let rule {
      add(Int64(rule.standardOffset))
      if let daylight = rule.daylight {
        add(Int64(daylight.offset))
        add(Int64(daylight.startTime))
        add(Int64(daylight.endTime))
        for date in [daylight.start, daylight.end] {
          switch date {
          case .julian(let day): add(1_000 + Int64(day))
          case .dayOfYear(let day): add(2_000 + Int64(day))
          case .monthWeekDay(let month, let week, let weekday): add(3_000 + Int64(month * 100 + week * 10 + weekday))
          }
        }
      }
    }
    return identifier + " " + String(hash, radix: 16)
  }

  /// The offset from UTC (seconds east) at the instant `seconds` since 1970.
  public func offset(at seconds: Int64) -> Int {
    let seconds = Self.bounded(seconds)
    guard let last = transitions.last else { return Int(rule?.offset(at: seconds) ?? initialOffset) }
    if seconds >= last { return Int(rule?.offset(at: seconds) ?? offsets[offsets.count - 1]) }
    if seconds < transitions[0] { return Int(initialOffset) }
    // The last transition not after `seconds`.
    var low = 0
    var high = transitions.count - 1
    while high - low > 1 {
      let middle = (low + high) / 2
      if transitions[middle] <= seconds { low = middle } else { high = middle }
    }
    return Int(offsets[low])
  }

  /// The instant at which the wall clock reads `wall` (seconds since 1970-01-01 00:00 of this zone's clock), as
  /// Foundation's calendar finds it: the first of two where the clock reads it twice (an hour repeated when clocks
  /// go back), and where it never does (clocks going forward), `wall` read with the offset before the change, which
  /// lands as far past the change as `wall` is past its start (02:30 in a gap from 02:00 to 03:00 is 03:30).
  public func instant(atWallClock wall: Int64) -> Int64 {
    let wall = Self.bounded(wall)
    // No zone's offset is a day from UTC or more, nor does a change move its clock by more than one: the instants
    // that can read `wall` lie within three days of it.
    let from = wall - 3 * 86_400
    let to = wall + 3 * 86_400
    var segmentStart = from
    var previousOffset: Int64?
    for change in changes(from: from, to: to) + [to] {
      let offset = Int64(self.offset(at: segmentStart))
      // On this stretch the clock reads from `segmentStart + offset` up to `change + offset`.
      if segmentStart + offset > wall, let previousOffset { return wall - previousOffset }
      if wall >= segmentStart + offset && wall < change + offset { return wall - offset }
      previousOffset = offset
      segmentStart = change
    }
    return wall - Int64(offset(at: wall))
  }

  /// Instants within a million years of 1970: past them the rules' arithmetic (a year's changes, days of seconds)
  /// would overflow, and no offset changes anyway.
  static func bounded(_ seconds: Int64) -> Int64 { min(max(seconds, -(1 << 45)), 1 << 45) }

  /// The instants in `from..<to` at which the offset changes, ascending (within a million years of 1970).
  func changes(from: Int64, to: Int64) -> [Int64] {
    let from = Self.bounded(from)
    let to = Self.bounded(to)
    var found = transitions.filter { $0 > from && $0 < to }
    if let rule, rule.daylight != nil, to > (transitions.last ?? Int64.min) {
      let start = max(from, transitions.last ?? from)
      for year in PosixRule.year(of: start) - 1...PosixRule.year(of: to) + 1 {
        for change in rule.changes(in: year) where change > start && change < to && change > from {
          found.append(change)
        }
      }
    }
    return found.sorted()
  }

  /// The bytes of the file at `path`, when it is a regular file of at most 256 KB (zone files are a few KB).
  private static func readSmallFile(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= 256 * 1024 else {
      return nil
    }
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
    var count = 0
    while count < bytes.count {
      let read = bytes.withUnsafeMutableBytes { buffer in
        #if canImport(Glibc)
          Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
        #else
          Darwin.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
        #endif
      }
      guard read > 0 else { return nil }
      count += read
    }
    return bytes
  }
}

/// The parts of a TZif file (RFC 8536) a zone's offsets come from: the 64-bit data block when the file has one,
/// else the 32-bit one, and the footer's rule. Counts are checked against the file's size before anything is read.
private struct TZif {
  var transitions: [Int64] = []
  var offsets: [Int32] = []
  var initialOffset: Int32 = 0
  var rule: PosixRule?

  /// Offsets further than this from UTC are no zone's (RFC 8536 allows up to a day).
  static let largestOffset: Int32 = 26 * 3600

  init?(_ bytes: [UInt8]) {
    var reader = Reader(bytes: bytes)
    guard let first = reader.header() else { return nil }
    var header = first
    var timeSize = 4
    if first.version >= 2 {
      // Past the 32-bit block, to the 64-bit one.
      guard reader.skip(first.dataSize(timeSize: 4)), let second = reader.header(), second.version >= 2 else {
        return nil
      }
      header = second
      timeSize = 8
    }
    guard header.typeCount >= 1, reader.remaining >= header.dataSize(timeSize: timeSize) else { return nil }
    var times: [Int64] = []
    times.reserveCapacity(header.timeCount)
    for _ in 0..<header.timeCount {
      let time =
        timeSize == 8 ? Int64(bitPattern: reader.number(8)) : Int64(Int32(bitPattern: UInt32(reader.number(4))))
      guard times.last.map({ $0 < time }) ?? true else { return nil }
      times.append(time)
    }
    let typeIndices = (0..<header.timeCount).map { _ in Int(reader.number(1)) }
    var typeOffsets: [Int32] = []
    for _ in 0..<header.typeCount {
      let offset = Int32(bitPattern: UInt32(reader.number(4)))
      _ = reader.number(2)  // whether it is daylight time, and its abbreviation
      // `magnitude`: C's `abs` of Int32.min is Int32.min, which no bound refuses.
      guard offset.magnitude <= Self.largestOffset.magnitude else { return nil }
      typeOffsets.append(offset)
    }
    guard typeIndices.allSatisfy({ $0 < typeOffsets.count }) else { return nil }
    _ = reader.skip(header.charCount + header.leapCount * (timeSize + 4) + header.standardCount + header.utcCount)
    transitions = times
    offsets = typeIndices.map { typeOffsets[$0] }
    initialOffset = typeOffsets[0]
    if first.version >= 2, let footer = reader.footer(), !footer.isEmpty {
      guard let parsed = PosixRule(footer) else { return nil }
      rule = parsed
    }
  }

  struct Header {
    var version: Int
    var utcCount: Int
    var standardCount: Int
    var leapCount: Int
    var timeCount: Int
    var typeCount: Int
    var charCount: Int

    func dataSize(timeSize: Int) -> Int {
      timeCount * (timeSize + 1) + typeCount * 6 + charCount + leapCount * (timeSize + 4) + standardCount + utcCount
    }
  }

  /// Big-endian numbers read from the file's bytes, never past their end.
  struct Reader {
    let bytes: [UInt8]
    var position = 0

    var remaining: Int { bytes.count - position }

    mutating func skip(_ count: Int) -> Bool {
      guard count >= 0, count <= remaining else { return false }
      position += count
      return true
    }

    /// The next `size` bytes as a big-endian number; callers check `remaining` first.
    mutating func number(_ size: Int) -> UInt64 {
      var value: UInt64 = 0
      for _ in 0..<size {
        value = value << 8 | UInt64(bytes[position])
        position += 1
      }
      return value
    }

    /// A header: `TZif`, the version, 15 reserved bytes and the six counts (each at most a million).
    mutating func header() -> Header? {
      guard remaining >= 44, bytes[position..<position + 4].elementsEqual("TZif".utf8) else { return nil }
      let versionByte = bytes[position + 4]
      let version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
      guard version >= 1 && version <= 9 else { return nil }
      position += 20
      let counts = (0..<6).map { _ in Int(number(4)) }
      guard counts.allSatisfy({ $0 <= 1_000_000 }) else { return nil }
      return Header(
        version: version, utcCount: counts[0], standardCount: counts[1], leapCount: counts[2], timeCount: counts[3],
        typeCount: counts[4], charCount: counts[5])
    }

    /// The footer: a rule between two line feeds.
    mutating func footer() -> String? {
      guard remaining >= 2, bytes[position] == 10 else { return nil }
      guard let end = bytes[(position + 1)...].firstIndex(of: 10) else { return nil }
      return String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
    }
  }
}

/// A POSIX `TZ` rule (`CET-1CEST,M3.5.0,M10.5.0/3`): a standard offset, and maybe a daylight offset with the dates
/// and times it starts and ends each year. As in RFC 8536's footers, times may run from -167 to 167 hours.
struct PosixRule: Equatable, Sendable {
  /// Seconds east of UTC (the text says west: `CET-1` is one hour east).
  let standardOffset: Int32
  let daylight: Daylight?

  struct Daylight: Equatable, Sendable {
    let offset: Int32
    let start: DateRule
    /// Seconds after local midnight, in standard time.
    let startTime: Int32
    let end: DateRule
    /// Seconds after local midnight, in daylight time.
    let endTime: Int32
  }

  enum DateRule: Equatable, Sendable {
    /// `Jn`: day 1 to 365, February 29 never counted.
    case julian(Int)
    /// `n`: day 0 to 365, February 29 counted.
    case dayOfYear(Int)
    /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (1 to 5, 5 the last) of month `m`.
    case monthWeekDay(month: Int, week: Int, weekday: Int)
  }

  init?(_ text: String) {
    var scanner = Scanner(Array(text.utf8))
    guard scanner.name(), let standard = scanner.offset() else { return nil }
    standardOffset = -standard
    guard !scanner.isAtEnd else {
      daylight = nil
      return
    }
    guard scanner.name() else { return nil }
    var daylightOffset = standardOffset + 3600
    if !scanner.isAtEnd && scanner.peek != UInt8(ascii: ",") {
      guard let offset = scanner.offset() else { return nil }
      daylightOffset = -offset
    }
    // Without dates, the US rules the POSIX standard names as the default.
    var start = DateRule.monthWeekDay(month: 3, week: 2, weekday: 0)
    var end = DateRule.monthWeekDay(month: 11, week: 1, weekday: 0)
    var startTime: Int32 = 7200
    var endTime: Int32 = 7200
    if !scanner.isAtEnd {
      guard scanner.take(UInt8(ascii: ",")), let first = scanner.dateRule() else { return nil }
      start = first
      if scanner.take(UInt8(ascii: "/")) {
        guard let time = scanner.time() else { return nil }
        startTime = time
      }
      guard scanner.take(UInt8(ascii: ",")), let second = scanner.dateRule() else { return nil }
      end = second
      if scanner.take(UInt8(ascii: "/")) {
        guard let time = scanner.time() else { return nil }
        endTime = time
      }
    }
    guard scanner.isAtEnd, standardOffset.magnitude <= TZif.largestOffset.magnitude,
      daylightOffset.magnitude <= TZif.largestOffset.magnitude
    else {
      return nil
    }
    daylight = Daylight(offset: daylightOffset, start: start, startTime: startTime, end: end, endTime: endTime)
  }

  /// The offset at the instant `seconds`.
  func offset(at seconds: Int64) -> Int32 {
    guard let daylight else { return standardOffset }
    let year = Self.year(of: seconds + Int64(standardOffset))
    let (start, end) = instants(in: year, daylight)
    let isDaylight = start < end ? seconds >= start && seconds < end : !(seconds >= end && seconds < start)
    return isDaylight ? daylight.offset : standardOffset
  }

  /// The instants at which daylight time starts and ends in `year`.
  func changes(in year: Int) -> [Int64] {
    guard let daylight else { return [] }
    let (start, end) = instants(in: year, daylight)
    return [start, end]
  }

  private func instants(in year: Int, _ daylight: Daylight) -> (start: Int64, end: Int64) {
    let start = Self.day(daylight.start, in: year) * 86_400 + Int64(daylight.startTime) - Int64(standardOffset)
    let end = Self.day(daylight.end, in: year) * 86_400 + Int64(daylight.endTime) - Int64(daylight.offset)
    return (start, end)
  }

  /// The day (days since 1970-01-01) a date rule names in `year`.
  static func day(_ rule: DateRule, in year: Int) -> Int64 {
    let january1 = CivilDate.days(year: year, month: 1, day: 1)
    switch rule {
    case .julian(let day):
      return january1 + Int64(day - 1) + (CivilDate.isLeap(year) && day >= 60 ? 1 : 0)
    case .dayOfYear(let day):
      return january1 + Int64(day)
    case .monthWeekDay(let month, let week, let weekday):
      let first = CivilDate.days(year: year, month: month, day: 1)
      // 1970-01-01 was a Thursday (weekday 4).
      let firstWeekday = Int(((first % 7) + 7 + 4) % 7)
      var day = 1 + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
      while day > CivilDate.daysIn(month: month, year: year) { day -= 7 }
      return first + Int64(day - 1)
    }
  }

  /// The year (proleptic Gregorian) of an instant read as UTC.
  static func year(of seconds: Int64) -> Int {
    CivilDate.year(ofDay: seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400))
  }

  /// The text of a rule, read left to right.
  private struct Scanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position >= bytes.count }
    var peek: UInt8? { isAtEnd ? nil : bytes[position] }

    mutating func take(_ byte: UInt8) -> Bool {
      guard peek == byte else { return false }
      position += 1
      return true
    }

    /// A zone abbreviation: three or more letters, or `<...>` of letters, digits, `+` and `-`.
    mutating func name() -> Bool {
      if take(UInt8(ascii: "<")) {
        let start = position
        while let byte = peek, byte != UInt8(ascii: ">") {
          guard Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
          else { return false }
          position += 1
        }
        return position - start >= 3 && take(UInt8(ascii: ">"))
      }
      let start = position
      while let byte = peek, Self.isLetter(byte) { position += 1 }
      return position - start >= 3
    }

    /// `[+-]hh[:mm[:ss]]` as seconds, hours up to 24 (an offset).
    mutating func offset() -> Int32? { signedTime(largestHours: 24) }

    /// A rule's time of day, hours up to 167 either way.
    mutating func time() -> Int32? { signedTime(largestHours: 167) }

    private mutating func signedTime(largestHours: Int) -> Int32? {
      var sign: Int32 = 1
      if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
      guard let hours = number(maximum: largestHours) else { return nil }
      var seconds = Int32(hours) * 3600
      if take(UInt8(ascii: ":")) {
        guard let minutes = number(maximum: 59) else { return nil }
        seconds += Int32(minutes) * 60
        if take(UInt8(ascii: ":")) {
          guard let more = number(maximum: 59) else { return nil }
          seconds += Int32(more)
        }
      }
      return sign * seconds
    }

    /// `Jn`, `n` or `Mm.w.d`.
    mutating func dateRule() -> DateRule? {
      if take(UInt8(ascii: "J")) {
        guard let day = number(maximum: 365), day >= 1 else { return nil }
        return .julian(day)
      }
      if take(UInt8(ascii: "M")) {
        guard let month = number(maximum: 12), month >= 1, take(UInt8(ascii: ".")),
          let week = number(maximum: 5), week >= 1, take(UInt8(ascii: ".")), let weekday = number(maximum: 6)
        else { return nil }
        return .monthWeekDay(month: month, week: week, weekday: weekday)
      }
      return number(maximum: 365).map { .dayOfYear($0) }
    }

    /// One to three digits, at most `maximum`.
    private mutating func number(maximum: Int) -> Int? {
      var value = 0
      var digits = 0
      while let byte = peek, Self.isDigit(byte), digits < 3 {
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
        digits += 1
        position += 1
      }
      guard digits > 0, value <= maximum, !(peek.map(Self.isDigit) ?? false) else { return nil }
      return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isLetter(_ byte: UInt8) -> Bool {
      (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
  }
}

/// Dates of the proleptic Gregorian calendar as days since 1970-01-01.
enum CivilDate {
  /// The days from 1970-01-01 to `year-month-day`: whole 400-year eras of 146,097 days, then the years, months
  /// (counted from March, so that February's length comes last) and days within the era.
  static func days(year: Int, month: Int, day: Int) -> Int64 {
    let shifted = month <= 2 ? year - 1 : year
    let era = (shifted >= 0 ? shifted : shifted - 399) / 400
    let yearOfEra = shifted - era * 400
    let monthFromMarch = (month + 9) % 12
    let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return Int64(era) * 146_097 + Int64(dayOfEra) - 719_468
  }

  /// The year that day `days` (since 1970-01-01) falls in.
  static func year(ofDay days: Int64) -> Int {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    return Int(yearOfEra + era * 400) + (monthFromMarch >= 10 ? 1 : 0)
  }

  static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
