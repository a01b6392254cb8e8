import Foundation
import Narrative

/// Reads the `narrative.*` keys of the config file into typed settings.
extension NarrativeSettings {
  mutating func apply(key: String, value: String) throws(ConfigError) {
    func seconds(_ name: String) throws(ConfigError) -> Double {
      var text = value.trimmingCharacters(in: .whitespaces).lowercased()
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
      guard let number = Double(text), number >= 0, number.isFinite else {
        throw .invalidValue(key: "narrative.\(name)", value: value, expected: "a duration in seconds such as 2 or 90s")
      }
      return number * scale
    }
    switch key {
    case "engine":
      guard let engine = Engine(rawValue: value.lowercased()) else {
        throw .invalidValue(key: "narrative.engine", value: value, expected: "one of ollama, openai, off")
      }
      self.engine = engine
    case "url":
      guard let parsed = URL(string: value), let scheme = parsed.scheme,
        ["http", "https"].contains(scheme.lowercased()),
        parsed.host != nil
      else {
        throw .invalidValue(key: "narrative.url", value: value, expected: "an http URL such as http://127.0.0.1:11434")
      }
      url = value
    case "model":
      guard !value.isEmpty else {
        throw .invalidValue(key: "narrative.model", value: value, expected: "a model name such as gemma3:4b")
      }
      model = value
    case "temperature":
      guard let number = Double(value), (0...2).contains(number) else {
        throw .invalidValue(key: "narrative.temperature", value: value, expected: "a number from 0 to 2")
      }
      temperature = number
    case "healthtimeout": healthTimeout = try seconds("healthTimeout")
    case "timeout": timeout = try seconds("timeout")
    case "retrydelay": retryDelay = try seconds("retryDelay")
    case "allowremote": allowRemote = try Configuration.parseBool(value, key: "narrative.allowRemote")
    default: break
    }
  }
}
