import Foundation
import Testing

@testable import Narrative
@testable import Support

/// The sentence cache's files are state-file records: any text comes back as it was stored, and a file cut
/// short by a crash is no sentence.
@Suite struct SentenceCacheTests {
  private func cache(_ scratch: ScratchDirectory, model: String = "gemma3:4b") -> SentenceCache {
    var settings = NarrativeSettings()
    settings.model = model
    return SentenceCache(cacheDirectory: scratch.path("cache"), settings: settings)
  }

  @Test func sentencesComeBackAsStored() throws {
    let scratch = try ScratchDirectory("gitjournal-sentence-cache")
    let cache = cache(scratch)
    #expect(!cache.hasSentences)
    let sentence = #"I fixed the C:\temp path"# + "\tand the \"quotes\" in the parser."
    try cache.store(sentence, signature: "facts-1")
    #expect(cache.hasSentences)
    #expect(cache.sentence(signature: "facts-1") == sentence)
    #expect(cache.sentence(signature: "facts-2") == nil)
    #expect(self.cache(scratch, model: "other").sentence(signature: "facts-1") == nil, "the model is in the key")
  }

  @Test func aFileCutShortIsNoSentence() throws {
    let scratch = try ScratchDirectory("gitjournal-sentence-cache")
    let cache = cache(scratch)
    try cache.store("I worked on the parser.", signature: "facts-1")
    let path = cache.folder + "/" + cache.key(signature: "facts-1") + ".txt"
    try AtomicFile.write("I worked on the pa", to: path)
    #expect(cache.sentence(signature: "facts-1") == nil)
  }

  @Test func rejectionsKeepTheirReasonOnOneLine() throws {
    let scratch = try ScratchDirectory("gitjournal-sentence-cache")
    let cache = cache(scratch)
    #expect(cache.rejection(signature: "facts-1") == nil)
    try cache.storeRejection("states 9731,\nwhich the facts do not have", signature: "facts-1")
    #expect(cache.rejection(signature: "facts-1") == "states 9731, which the facts do not have")
    #expect(!cache.hasSentences, "a rejection is not a sentence")
  }
}
