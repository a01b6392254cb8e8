import Facts
import Foundation
import GitReader
import Support

/// Sentences already written, one small file each under `${XDG_CACHE_HOME:-~/.cache}/gitjournal/sentences`,
/// keyed by the facts' signature, the engine, the model and the prompt's version: a day whose facts did
/// not change never reaches the model again.
package struct SentenceCache: Sendable {
  let folder: String
  let engine: NarrativeSettings.Engine
  let model: String

  package init(cacheDirectory: String, settings: NarrativeSettings) {
    folder = cacheDirectory + "/sentences"
    engine = settings.engine
    model = settings.model
  }

  func key(signature: String) -> String {
    ContentHash.hex(of: "\(signature)\n\(engine.rawValue)\n\(model)\nprompt-v\(Prompt.version)\n")
  }

  /// False until the first sentence is stored: until then no lookup needs a signature.
  package var hasSentences: Bool { access(folder, F_OK) == 0 }

  package func sentence(signature: String) -> String? {
    guard let text = try? AtomicFile.read(folder + "/" + key(signature: signature) + ".txt") else { return nil }
    let sentence = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return sentence.isEmpty ? nil : sentence
  }

  func store(_ sentence: String, signature: String) throws {
    try makeFolders(folder)
    try AtomicFile.write(sentence + "\n", to: folder + "/" + key(signature: signature) + ".txt")
  }
}
