import ArgumentParser
import Testing
import ToolSupport

/// The receiver's options, spelled once for `regctl serve` and `regscope --receive`.
@Suite("the receiver's options")
struct ReceiverArgumentsTests {
  static func parse(_ arguments: [String]) throws -> ReceiverArguments {
    try ReceiverArguments.parse(arguments)
  }

  @Test("the defaults listen on loopback port 8080 and are not 'given'")
  func defaults() throws {
    let receiver = try Self.parse([])
    #expect(receiver.port == 8080 && receiver.listen == "127.0.0.1" && !receiver.given)
    #expect(!receiver.listensBeyondLoopback && receiver.exposureWarning == nil)
    #expect(receiver.options.host == "127.0.0.1" && receiver.options.tls == nil)
  }

  @Test(
    "bad combinations are clear errors",
    arguments: [
      (["--port", "70000"], "--port must be 0 to 65535"),
      (["--port=-1"], "--port must be 0 to 65535"),
      (["--tls-cert", "c.pem"], "give --tls-cert and --tls-key together"),
      (["--any-app", "--listen", "0.0.0.0"], "--any-app works on loopback only"),
    ])
  func refused(arguments: [String], says: String) {
    #expect {
      _ = try Self.parse(arguments)
    } throws: { error in
      ReceiverArguments.message(for: error).contains(says)
    }
  }

  @Test("--host is --listen; a LAN address warns, and counts as given")
  func lan() throws {
    let receiver = try Self.parse(["--host", "192.168.1.20", "--port", "0"])
    #expect(receiver.listen == "192.168.1.20" && receiver.given)
    #expect(receiver.exposureWarning?.contains("anyone who can reach it") == true)
    #expect(receiver.options.port == 0)
  }
}
