import Facts
import Foundation
import GitReader
import Support

/// Sentences already written, one small file each under `${XDG_CACHE_HOME:-~/.cache}/gitjournal/sentences`,
/// keyed by the facts' signature, the engine, the model and the prompt's version: a day whose facts did
/// not change never reaches the model again. Each file is one `StateFile` record of one field.
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

  func key(signature: String) -> String {
    ContentHash.hex(of: "\(signature)\n\(engine.rawValue)\n\(model)\nprompt-v\(Prompt.version)\n")
  }

  /// False until the first sentence is stored: until then no lookup needs a signature.
  package var hasSentences: Bool { access(folder, F_OK) == 0 }

  package func sentence(signature: String) -> String? {
    let sentence = Self.firstField(of: folder + "/" + key(signature: signature) + ".txt")
    return sentence.isEmpty ? nil : sentence
  }

  func store(_ sentence: String, signature: String) throws {
    try StateFile.write([[sentence]], to: folder + "/" + key(signature: signature) + ".txt")
  }

  func rejectionKey(signature: String) -> String {
    ContentHash.hex(
      of: "\(signature)\n\(engine.rawValue)\n\(model)\nprompt-v\(Prompt.version)\nguard-v\(SentenceGuard.version)\n")
  }

  /// Why the model's answers for these facts were rejected, when they were.
  func rejection(signature: String) -> String? {
    let path = rejectionFolder + "/" + rejectionKey(signature: signature) + ".txt"
    guard access(path, F_OK) == 0 else { return nil }
    let reason = Self.firstField(of: path)
    return reason.isEmpty ? "rejected" : reason
  }

  func storeRejection(_ reason: String, signature: String) throws {
    // One line, as the log shows it.
    let line = reason.replacingOccurrences(of: "\n", with: " ")
    try StateFile.write([[line]], to: rejectionFolder + "/" + rejectionKey(signature: signature) + ".txt")
  }

  /// The first record's first field, trimmed; empty when the file is missing or has no complete record.
  private static func firstField(of path: String) -> String {
    var field = ""
    StateFile.read(path) { record in
      field = record.text(0)
      return false
    }
    return field.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
