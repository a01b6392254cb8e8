import Foundation
import Testing

@testable import Narrative

/// Nothing leaves the machine: a server that is not on loopback is refused before any connection or DNS
/// query, unless `narrative.allowRemote = true`.
@Suite struct RemoteServerTests {
  /// The refusal is made from the URL's text alone: `JSONEndpoint` is what every request is made from, so no
  /// request, connection or name lookup can come before it. (10.255.255.1 is routable but never answers.)
  @Test(arguments: [
    "http://10.255.255.1:9/", "http://192.168.1.20:11434", "http://[2001:db8::1]:11434", "http://ollama.example.com",
    "http://127.0.0.1.nip.io:11434", "http://localhost.example.com:11434", "http://0x7f.0.0.1:11434",
  ])
  func remoteHostIsRefusedBeforeAnyConnection(url: String) {
    #expect {
      try JSONEndpoint(baseURL: url, allowRemote: false)
    } throws: { error in
      guard case .remoteRefused = error as? NarrativeError else { return false }
      return true
    }
  }

  @Test(arguments: [
    "http://127.0.0.1:11434", "http://localhost:8080", "http://LOCALHOST:8080", "http://127.8.9.10:1",
    "http://[::1]:11434",
  ])
  func loopbackHostsAreAccepted(url: String) throws {
    _ = try JSONEndpoint(baseURL: url, allowRemote: false)
  }

  @Test func allowRemoteLetsAnyHostThrough() throws {
    let endpoint = try JSONEndpoint(baseURL: "http://10.255.255.1:9/", allowRemote: true)
    #expect(try endpoint.url("/api/tags").absoluteString == "http://10.255.255.1:9/api/tags")
  }

  /// The narrator is not even made: the refusal is logged once and no sentence is ever asked for.
  @Test func narratorForARemoteServerIsNeverMade() throws {
    let fixture = try NarratorFixture(url: "http://10.255.255.1:9/")
    #expect(throws: ScratchError.self) { try fixture.narrator() }
    #expect(fixture.log.contains("refusing to send the prompt to 10.255.255.1"), "log: \(fixture.log)")
    #expect(fixture.log.contains("narrative.allowRemote"))
  }
}
