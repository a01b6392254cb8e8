import Foundation
import Testing

@testable import Support

/// The system's zone files give the offsets the C library's own tools read from them, for zones of every kind; what
/// is not a zone (a hostile file, a name outside the zone folder, a malformed rule) is none, never a crash.
@Suite struct TimeZoneRulesTests {
  static let zones = [
    "UTC", "Europe/Paris", "Europe/London", "Europe/Dublin", "Europe/Moscow", "America/New_York", "America/Chicago",
    "America/Los_Angeles", "America/Sao_Paulo", "America/Santiago", "America/St_Johns", "America/Havana",
    "America/Nuuk", "America/Asuncion", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Tehran", "Asia/Tokyo",
    "Asia/Shanghai", "Australia/Sydney", "Australia/Lord_Howe", "Australia/Adelaide", "Pacific/Auckland",
    "Pacific/Chatham", "Pacific/Apia", "Pacific/Kiritimati", "Africa/Cairo", "Africa/Casablanca", "Antarctica/Troll",
  ]

  /// Every zone's offset equals `zdump`'s every 3 days from 1970 to 2100 (past the end of the files' tables, where
  /// their footer rules decide), and an hour either side of each change. (Foundation's zones are no reference: on
  /// Swift 6.0 they are ICU's own release, not the system's files.)
  @Test func offsetsAreTheSystemsFiles() async throws {
    await DedicatedThread.run {
      for name in Self.zones {
        guard let rules = TimeZoneRules(identifier: name), let reference = SystemZoneOffsets(zone: name) else {
          Issue.record("no zone \(name)")
          continue
        }
        #expect(rules.identifier == name)
        let end: Int64 = 4_102_444_800  // 2100-01-01
        let changes = rules.changes(from: 0, to: end)
        let instants =
          Array(stride(from: 0, to: end, by: 3 * 86_400)) + changes.flatMap { [$0 - 3_600, $0, $0 + 3_599] }
        var differences = 0
        for seconds in instants where rules.offset(at: seconds) != reference.offset(at: seconds) {
          differences += 1
          if differences <= 3 {
            Issue.record(
              "\(name) at \(seconds): \(rules.offset(at: seconds)) against \(reference.offset(at: seconds))")
          }
        }
      }
    }
  }

  /// Two zones under one name (a new `/etc/localtime` copied over the old) have different fingerprints; one zone
  /// read twice has one.
  @Test func fingerprintsTellZonesApart() throws {
    let paris = try #require(TimeZoneRules.read(file: "/usr/share/zoneinfo/Europe/Paris", identifier: "localtime"))
    let tokyo = try #require(TimeZoneRules.read(file: "/usr/share/zoneinfo/Asia/Tokyo", identifier: "localtime"))
    let again = try #require(TimeZoneRules.read(file: "/usr/share/zoneinfo/Europe/Paris", identifier: "localtime"))
    #expect(paris.fingerprint != tokyo.fingerprint && paris.fingerprint == again.fingerprint)
    #expect(paris.fingerprint.hasPrefix("localtime "))
    #expect(TimeZoneRules(posix: "EST5EDT")?.fingerprint != TimeZoneRules(posix: "EST5EDT,M4.1.0,M10.5.0")?.fingerprint)
  }

  /// Instants as far as 64 bits go, which a commit's header can give: no arithmetic traps, and the offsets are
  /// the zone's.
  @Test func extremeInstantsDoNotTrap() throws {
    let zones = [
      try #require(TimeZoneRules(identifier: "Europe/Paris")),
      try #require(TimeZoneRules(posix: "EST5EDT,M3.2.0,J365")),
      try #require(TimeZoneRules(posix: "NZST-12NZDT,M9.5.0,M4.1.0/3")), TimeZoneRules.utc,
    ]
    for zone in zones {
      for instant in [Int64.max, .min, .max - 100_000, .min + 100_000, 1 << 60, -(1 << 60)] {
        #expect(abs(zone.offset(at: instant)) <= 14 * 3_600, "\(zone.identifier) \(instant)")
        _ = zone.instant(atWallClock: instant)
      }
      #expect(zone.changes(from: .max - 10 * 86_400, to: .max).isEmpty)
      #expect(zone.changes(from: .min, to: .min + 10 * 86_400).isEmpty)
    }
  }

  /// A wall-clock time read as Foundation's calendar reads it: once, twice (the first), or in a gap (moved on by
  /// the gap's length).
  @Test func wallClockTimesNearChanges() throws {
    let paris = try #require(TimeZoneRules(identifier: "Europe/Paris"))
    // 2026-03-29: clocks go from 02:00 to 03:00 (01:00 UTC). 2026-10-25: from 03:00 back to 02:00 (01:00 UTC).
    let march29 = Int64(1_774_742_400)
    let october25 = Int64(1_792_886_400)
    #expect(paris.instant(atWallClock: march29 + 3_600) == march29)  // 01:00, +01:00
    #expect(paris.instant(atWallClock: march29 + 9_000) == march29 + 5_400)  // 02:30 does not exist: 03:30, +02:00
    #expect(paris.instant(atWallClock: march29 + 10_800) == march29 + 3_600)  // 03:00, +02:00
    #expect(paris.instant(atWallClock: october25 + 9_000) == october25 + 1_800)  // 02:30 twice: the first, +02:00
    #expect(paris.instant(atWallClock: october25 + 12_600) == october25 + 9_000)  // 03:30, +01:00
  }

  @Test(
    arguments: [
      ("CET-1CEST,M3.5.0,M10.5.0/3", 1_782_000_000, 7_200),
      ("CET-1CEST,M3.5.0,M10.5.0/3", 1_800_000_000, 3_600),
      ("<+0330>-3:30", 1_782_000_000, 12_600),
      ("EST5EDT", 1_782_000_000, -14_400),
      ("NZST-12NZDT,M9.5.0,M4.1.0/3", 1_782_000_000, 43_200),
      ("NZST-12NZDT,M9.5.0,M4.1.0/3", 1_798_000_000, 46_800),
      ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", 1_782_000_000, -3_600),
      ("IST-2IDT,M3.4.4/26,M10.5.0", 1_782_000_000, 10_800),
      ("AAA3BBB,J60/2,J300/2", 1_782_000_000, -7_200),
      ("AAA3BBB,59/2,299/2", 1_782_000_000, -7_200),
      ("UTC0", 1_782_000_000, 0),
    ] as [(String, Int64, Int)])
  func posixRules(rule: String, at seconds: Int64, offset: Int) throws {
    let zone = try #require(TimeZoneRules(posix: rule))
    #expect(zone.offset(at: seconds) == offset)
  }

  @Test(arguments: [
    "", "C-1", "CET", "CET-25", "CET-1:60", "CET-1CEST,M13.1.0,M10.5.0", "CET-1CEST,M3.5.0", "CET-1CEST,M3.6.0,M10.5.0",
    "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,M3.5.0/168,M10.5.0", "<>1", "<AB>1", "CET-1CEST,J0,J300", "CET-1CEST,366,1",
    "CET-1 ", "CET-0001",
  ])
  func malformedRulesAreNone(rule: String) {
    #expect(TimeZoneRules(posix: rule) == nil)
  }

  /// Only names below the zone folder: no absolute path, no `..`, nothing a zone name does not hold.
  @Test func namesStayInTheZoneFolder() throws {
    for name in [
      "", "/etc/localtime", "../../etc/passwd", "Europe/../../etc/passwd", "Europe/./Paris", "Europe//Paris",
      "Europe/Paris\n", "Europe", "zone.tab", "Nowhere/Atlantis",
    ] {
      #expect(TimeZoneRules(identifier: name) == nil, "\(name)")
    }
    let scratch = try ScratchDirectory("gitjournal-zones")
    // UTC and its aliases need no file.
    #expect(TimeZoneRules(identifier: "UTC", folder: scratch.path("none"))?.offset(at: 0) == 0)
    #expect(TimeZoneRules(identifier: "Etc/UTC", folder: scratch.path("none")) != nil)
    #expect(TimeZoneRules(identifier: "Europe/Paris", folder: scratch.path("none")) == nil)
  }

  /// Damaged or hostile zone files are no zone: cut short, counts larger than the file, transitions out of order, a
  /// type that does not exist, an offset of days, a huge file, a folder, a FIFO.
  @Test func hostileFilesAreNone() throws {
    let scratch = try ScratchDirectory("gitjournal-hostile-zones")
    let paris = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Paris"))
    var cases: [(String, Data)] = [
      ("empty", Data()), ("magic", Data("TZif".utf8)), ("cut", paris.prefix(60)), ("cut-late", paris.dropLast(40)),
      ("text", Data(repeating: 0x41, count: 4_000)),
    ]
    cases.append(("huge counts", header(version: 0, counts: [0, 0, 0, 900_000, 1, 0]) + Data(count: 64)))
    cases.append(("more than a million", header(version: 0, counts: [0, 0, 0, 2_000_000, 1, 0])))
    // Version 1 files: two transitions at 10 and 5 (out of order), type 0.
    cases.append(
      (
        "unordered",
        header(version: 0, counts: [0, 0, 0, 2, 1, 4]) + be32(10) + be32(5) + Data([0, 0]) + ttinfo(3_600)
          + Data(count: 4)
      ))
    cases.append(
      (
        "missing type",
        header(version: 0, counts: [0, 0, 0, 1, 1, 4]) + be32(10) + Data([3]) + ttinfo(3_600) + Data(count: 4)
      ))
    cases.append(("days away", header(version: 0, counts: [0, 0, 0, 0, 1, 4]) + ttinfo(400_000) + Data(count: 4)))
    // The one offset whose C `abs` is itself.
    cases.append(("Int32.min", header(version: 0, counts: [0, 0, 0, 0, 1, 4]) + ttinfo(.min) + Data(count: 4)))
    cases.append(("no type", header(version: 0, counts: [0, 0, 0, 0, 0, 0])))
    cases.append(("big", Data(count: 300 * 1024)))
    for (name, bytes) in cases {
      let path = scratch.path(name)
      try bytes.write(to: URL(fileURLWithPath: path))
      #expect(TimeZoneRules.read(file: path, identifier: name) == nil, "\(name)")
    }
    // A well-formed version 1 file reads: one offset, +01:00 from instant 10.
    let good = scratch.path("good")
    try
      (header(version: 0, counts: [0, 0, 0, 1, 2, 4]) + be32(10) + Data([1]) + ttinfo(0) + ttinfo(3_600)
      + Data(count: 4))
      .write(to: URL(fileURLWithPath: good))
    let zone = try #require(TimeZoneRules.read(file: good, identifier: "good"))
    #expect(zone.offset(at: 9) == 0 && zone.offset(at: 10) == 3_600)
    #expect(TimeZoneRules.read(file: scratch.path(""), identifier: "folder") == nil)
    #expect(mkfifo(scratch.path("fifo"), 0o644) == 0)
    #expect(TimeZoneRules.read(file: scratch.path("fifo"), identifier: "fifo") == nil)
  }

  private func header(version: UInt8, counts: [UInt32]) -> Data {
    Data("TZif".utf8) + Data([version]) + Data(count: 15) + counts.reduce(Data()) { $0 + be32(Int32(bitPattern: $1)) }
  }

  private func be32(_ value: Int32) -> Data {
    withUnsafeBytes(of: value.bigEndian) { Data($0) }
  }

  private func ttinfo(_ offset: Int32) -> Data { be32(offset) + Data([0, 0]) }
}
