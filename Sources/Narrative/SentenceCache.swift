import Facts
import GitReader
import Support

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sentences already written, one small file each under `${XDG_CACHE_HOME:-~/.cache}/gitjournal/sentences`,
/// keyed by the facts' signature, the engine, the model and the prompt's version (the day's, or a week's and a
/// month's): a page whose facts did not change never reaches the model again. Each file is one `StateFile` record of
/// one field.
///
/// Days whose answers the guard rejected are remembered too, under `…/gitjournal/rejections` (a folder of its
/// own, so that `hasSentences` stays false until a sentence exists): the key adds the guard's version, so the
/// entry expires with the facts, the engine, the model, the prompt or the guard.
package struct SentenceCache: Sendable {
  let folder: String
  let rejectionFolder: String
  let engine: NarrativeSettings.Engine
  let model: String

  package init(cacheDirectory: String, settings: NarrativeSettings) {
    folder = cacheDirectory + "/sentences"
    rejectionFolder = cacheDirectory + "/rejections"
    engine = settings.engine
    model = settings.model
  }

  /// Whose sentence: each has a prompt of its own, and so a version of its own in the key.
  package enum Page: Sendable {
    case day
    /// A week's or a month's.
    case period

    var prompt: String {
      switch self {
      case .day: return "prompt-v\(Prompt.version)"
      case .period: return "period-prompt-v\(Prompt.periodVersion)"
      }
    }
  }

  func key(signature: String, page: Page = .day) -> String {
    ContentHash.hex(of: "\(signature)\n\(engine.rawValue)\n\(model)\n\(page.prompt)\n")
  }

  /// False until the first sentence is stored: until then no lookup needs a signature.
  package var hasSentences: Bool { access(folder, F_OK) == 0 }

  package func sentence(signature: String, page: Page = .day) -> String? {
    let sentence = Self.firstField(of: folder + "/" + key(signature: signature, page: page) + ".txt")
    return sentence.isEmpty ? nil : sentence
  }

  func store(_ sentence: String, signature: String, page: Page = .day) throws {
    try StateFile.write([[sentence]], to: folder + "/" + key(signature: signature, page: page) + ".txt", isCache: true)
  }

  func rejectionKey(signature: String, page: Page = .day) -> String {
    ContentHash.hex(
      of: "\(signature)\n\(engine.rawValue)\n\(model)\n\(page.prompt)\nguard-v\(SentenceGuard.version)\n")
  }

  /// Why the model's answers for these facts were rejected, when they were.
  func rejection(signature: String, page: Page = .day) -> String? {
    let path = rejectionFolder + "/" + rejectionKey(signature: signature, page: page) + ".txt"
    guard access(path, F_OK) == 0 else { return nil }
    let reason = Self.firstField(of: path)
    return reason.isEmpty ? "rejected" : reason
  }

  func storeRejection(_ reason: String, signature: String, page: Page = .day) throws {
    // One line, as the log shows it.
    let line = reason.replacingEvery("\n", with: " ")
    try StateFile.write(
      [[line]], to: rejectionFolder + "/" + rejectionKey(signature: signature, page: page) + ".txt", isCache: true)
  }

  /// The first record's first field, trimmed; empty when the file is missing or has no complete record.
  private static func firstField(of path: String) -> String {
    var field = ""
    StateFile.read(path) { record in
      field = record.text(0)
      return false
    }
    return String(field.trimmingWhitespace())
  }
}
