import Narrative
import Support

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads the `narrative.*` keys of the config file into typed settings, each number within the documented bounds
/// `NarrativeSettings` holds.
extension NarrativeSettings {
  mutating func apply(key: String, value: String) throws(ConfigError) {
    switch key {
    case "engine":
      guard let engine = Engine(rawValue: value.lowercased()) else {
        throw .invalidValue(key: "narrative.engine", value: value, expected: "one of ollama, openai, off")
      }
      self.engine = engine
    case "url":
      guard let parsed = URL(string: value), let scheme = parsed.scheme,
        ["http", "https"].contains(scheme.lowercased()),
        parsed.host != nil, Self.hasValidPort(value)
      else {
        throw .invalidValue(
          key: "narrative.url", value: value,
          expected: "an http URL such as http://127.0.0.1:11434 (a port is 1 to 65535)")
      }
      url = value
    case "model":
      guard !value.isEmpty else {
        throw .invalidValue(key: "narrative.model", value: value, expected: "a model name such as gemma3:4b")
      }
      model = value
    case "temperature":
      guard let number = Double(value.trimmingSpaces()), Self.temperatureBounds.contains(number)
      else {
        throw .invalidValue(key: "narrative.temperature", value: value, expected: "a number from 0 to 2")
      }
      temperature = number
    case "healthtimeout":
      healthTimeout = try Self.seconds(value, key: "narrative.healthTimeout", bounds: Self.healthTimeoutBounds)
    case "timeout": timeout = try Self.seconds(value, key: "narrative.timeout", bounds: Self.timeoutBounds)
    case "retrydelay":
      retryDelay = try Self.seconds(value, key: "narrative.retryDelay", bounds: Self.retryDelayBounds)
    case "allowremote": allowRemote = try Configuration.parseBool(value, key: "narrative.allowRemote")
    default:
      throw .unknownKey(key: "narrative.\(key)", suggestion: Configuration.closestKey(to: "narrative.\(key)"))
    }
  }

  /// The keys of the `narrative` section, as `help config` spells them.
  static let keys = ["engine", "url", "model", "temperature", "healthTimeout", "timeout", "retryDelay", "allowRemote"]
    .map { "narrative.\($0)" }

  /// A duration in seconds (`90`, `90s`), minutes (`2m`) or milliseconds (`500ms`), within `bounds`.
  static func seconds(_ value: String, key: String, bounds: ClosedRange<Double>) throws(ConfigError) -> Double {
    var text = value.trimmingSpaces().lowercased()
    var scale = 1.0
    if text.hasSuffix("ms") {
      text.removeLast(2)
      scale = 0.001
    } else if text.hasSuffix("s") {
      text.removeLast()
    } else if text.hasSuffix("m") {
      text.removeLast()
      scale = 60
    }
    // Digits and a dot only: Double(_:) also reads "nan", "inf" and hexadecimal.
    let isDecimal =
      !text.isEmpty && text.utf8.allSatisfy { (48...57).contains($0) || $0 == 46 }
      && text.utf8.filter { $0 == 46 }.count <= 1
    guard isDecimal, let number = Double(text).map({ $0 * scale }), number.isFinite, bounds.contains(number) else {
      throw .invalidValue(
        key: key, value: value,
        expected:
          "a duration from \(SecondsText.format(bounds.lowerBound)) s to \(SecondsText.format(bounds.upperBound)) s "
          + "such as 2 or 90s")
    }
    return number
  }
}
