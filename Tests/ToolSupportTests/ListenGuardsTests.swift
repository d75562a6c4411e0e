import ArgumentParser
import Foundation
import Session
import Testing
import ToolSupport

/// What a receiver refuses before it listens (#43): the demo app's public token off loopback
/// however it arrives, an output named like a store's side file; and loopback however the
/// address is written.
@Suite("what a receiver refuses before it listens")
struct ListenGuardsTests {
  static let demoToken = SessionSetup().accessToken
  static let demoApp = SessionSetup().appID

  @Test(
    "loopback written exactly (LoopbackHost, #52); written oddly or with anything after, not",
    arguments: [
      ("127.0.0.1", true), ("127.255.0.9", true), ("localhost", true), ("LOCALHOST", true),
      ("::1", true), ("[::1]", true), ("127.1", false), ("0x7f000001", false),
      ("2130706433", false), ("localhost.", false), ("0:0:0:0:0:0:0:1", false),
      ("127.0.0.1 .evil.example", false), ("0.0.0.0", false), ("::", false),
      ("192.168.1.20", false), ("128.0.0.1", false), ("localhost.evil", false),
      ("example.com", false), ("", false), ("127.0.0.1\u{0}", false),
    ])
  func loopback(host: String, expected: Bool) {
    #expect(Loopback.contains(host) == expected, "\(host)")
  }

  @Test("the demo token off loopback is refused whatever its source; a private one is not")
  func publicToken() {
    #expect(
      Loopback.publicTokenProblem(
        token: Self.demoToken, host: "0.0.0.0", from: "REGSCOPE_ACCESS_TOKEN")?
        .contains("the demo app's token (from REGSCOPE_ACCESS_TOKEN) is public") == true)
    #expect(
      Loopback.publicTokenProblem(token: " \(Self.demoToken) ", host: "10.0.0.5", from: "x") != nil)
    #expect(Loopback.publicTokenProblem(token: Self.demoToken, host: "127.0.0.1", from: "x") == nil)
    #expect(Loopback.publicTokenProblem(token: Self.demoToken, host: "127.1", from: "x") != nil)
    #expect(
      Loopback.publicTokenProblem(token: "a-private-token-0123456789", host: "0.0.0.0", from: "x")
        == nil)
  }

  @Test(
    "the demo token given explicitly (a flag, a token file) is refused off loopback",
    arguments: ["flag", "file"])
  func explicitDemoToken(source: String) throws {
    var arguments = ["--app-id", Self.demoApp]
    if source == "flag" {
      arguments += ["--access-token", Self.demoToken]
    } else {
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("token-\(UUID().uuidString)").path
      try Self.demoToken.write(toFile: path, atomically: true, encoding: .utf8)
      arguments += ["--access-token-file", path]
    }
    let app = try AppCredentials.parse(arguments)
    #expect {
      _ = try app.receiverApp(
        config: nil, receiver: try ReceiverArguments.parse(["--listen", "0.0.0.0"]))
    } throws: { error in
      "\(error)".contains("the demo app's token") && "\(error)".contains("is public")
    }
    // On loopback the same is fine.
    _ = try app.receiverApp(config: nil, receiver: try ReceiverArguments.parse([]))
  }

  @Test(
    "an output named like an SQLite side file is refused; others are not",
    arguments: [
      ("capture.har", false), ("server.db-journal", true), ("server.db-wal", true),
      ("server.db-SHM", true), ("my-walk.har", false),
    ])
  func sideFiles(path: String, refused: Bool) {
    #expect(
      (ReceiverArguments.storeSideFileProblem(option: "--har", path: path) != nil) == refused)
    if refused {
      #expect(throws: (any Error).self) { _ = try ReceiverArguments.parse(["--har", path]) }
    } else {
      #expect(throws: Never.self) { _ = try ReceiverArguments.parse(["--har", path]) }
    }
  }

  @Test("a token file that is a device or a directory is refused before it is read")
  func tokenFileBounded() throws {
    for (path, says) in [
      ("/dev/zero", "is not a regular file"),
      (FileManager.default.temporaryDirectory.path, "is a directory"),
    ] {
      let app = try AppCredentials.parse(["--app-id", "x", "--access-token-file", path])
      #expect {
        _ = try app.resolvedAccessToken()
      } throws: { error in
        "\(error)".contains(says)
      }
    }
  }
}
