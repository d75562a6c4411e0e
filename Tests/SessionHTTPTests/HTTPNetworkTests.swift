import Session
import SessionHTTP
import Testing

/// What is wrong with a receiver's options is said before anything listens.
@Suite("the real network's checks")
struct HTTPNetworkTests {
  @Test("an upstream that is no http(s) URL, and a certificate that is not there, are named")
  func problems() {
    #expect(HTTPNetwork.problem(with: ReceiverOptions(port: 0)) == nil)
    let ftp = HTTPNetwork.problem(with: ReceiverOptions(port: 0, upstream: "ftp://tenant"))
    #expect(ftp?.hasPrefix("--upstream ftp://tenant") == true)
    let missing = HTTPNetwork.problem(
      with: ReceiverOptions(port: 0, tls: ("/nonexistent/cert.pem", "/nonexistent/key.pem")))
    #expect(missing?.contains("/nonexistent/cert.pem") == true)
  }

  @Test("a relayed tenant is shown without its credentials")
  func relayShown() {
    #expect(!HTTPNetwork.relayShown("https://user:secret@tenant.example").contains("secret"))
  }
}
