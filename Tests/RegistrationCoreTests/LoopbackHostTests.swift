import Testing

@testable import RegistrationCore

/// The one strict reading of "this host is loopback" (#52, item 9): what lets plain http reach
/// a tenant, and what a receiver's `--listen` is held to.
@Suite("a loopback host, read strictly")
struct LoopbackHostTests {
  @Test(
    "loopback only as 127.x.y.z in four decimal parts, localhost or [::1], written exactly",
    arguments: [
      ("127.0.0.1", true), ("127.255.0.9", true), ("127.0.0.0", true), ("127.1.2.3", true),
      ("localhost", true), ("LOCALHOST", true), ("LocalHost", true), ("[::1]", true),
      ("::1", true),
      // Text after the address: inet_aton stops at a space, a resolver looks up the whole.
      ("127.0.0.1 .evil.example", false), ("127.0.0.1%20.evil.example", false),
      ("127.0.0.1.evil.example", false), ("127.0.0.1.", false), ("127.0.0.1\u{0}", false),
      ("127.0.0.1\t", false), (" 127.0.0.1", false), ("127.0.0.1:80", false),
      // Addresses written oddly: some parser reads each another way.
      ("127.1", false), ("127.0.1", false), ("0x7f000001", false), ("0x7f.0.0.1", false),
      ("2130706433", false), ("0177.0.0.1", false), ("127.0.0.01", false),
      ("127.000.0.1", false), ("127.0.0.256", false), ("127.0.0.-1", false),
      ("127.0.0.1.1", false), ("127..0.1", false), ("１２７.0.0.1", false),
      ("0:0:0:0:0:0:0:1", false), ("[0:0:0:0:0:0:0:1]", false), ("[::1]x", false),
      ("[::1%lo]", false), ("::ffff:127.0.0.1", false),
      // Names: only localhost itself.
      ("localhost.", false), ("localhost%2E", false), ("localhost.evil.example", false),
      ("evil-localhost", false), ("localhost ", false), ("ʟocalhost", false),
      ("128.0.0.1", false), ("0.0.0.0", false), ("::", false), ("", false),
      ("example.com", false),
    ])
  func reading(host: String, loopback: Bool) {
    #expect(LoopbackHost.contains(host) == loopback, "\(host)")
  }
}
