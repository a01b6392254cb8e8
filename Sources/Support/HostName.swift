#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// This machine's name as a folder name: what the journal's per-machine records are filed under.
public enum HostName {
  /// `gethostname`, its first label, kept to letters, digits, `-`, `_` and `.` (others become `-`), at most
  /// 64 characters; `this-machine` when there is none.
  public static var current: String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return sanitized("") }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return sanitized(String(name.split(separator: ".").first ?? ""))
  }

  public static func sanitized(_ name: String) -> String {
    var cleaned = String(name.prefix(64).map { allowed.contains($0) ? $0 : "-" })
    while cleaned.hasPrefix(".") { cleaned.removeFirst() }
    // The folder of conflict copies sits beside the machines' folders.
    if reserved.contains(cleaned) { cleaned += "-machine" }
    return cleaned.isEmpty ? "this-machine" : cleaned
  }

  /// Whether `name` is a machine name as `sanitized` makes them (`journal.host` is checked with this).
  public static func isValid(_ name: String) -> Bool {
    !name.isEmpty && name.count <= 64 && !name.hasPrefix(".") && !reserved.contains(name)
      && name.allSatisfy { allowed.contains($0) }
  }

  private static let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
  /// Names under `.gitjournal` that are not machines.
  public static let reserved: Set<String> = ["conflicts"]
}
