/// Seconds as a person reads them (`90`, `0.5`), for any `Double` a config file or a state file can hold:
/// `Int(seconds)` traps on 1e300, infinity and NaN, so whole numbers go through `Int(exactly:)`.
package enum SecondsText {
  package static func format(_ seconds: Double) -> String {
    guard seconds.isFinite else { return String(seconds) }
    let tenths = (seconds * 10).rounded() / 10
    if let whole = Int(exactly: tenths) { return String(whole) }
    return String(tenths)
  }
}
