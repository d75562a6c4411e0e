import Foundation
import TestSupport
import Testing

/// `regctl serve --upstream`: a relayed registration the tenant did not take, or the relay
/// answered itself, is said on the terminal with who answered: a relay that fails is never
/// silent (a new user's walk found every failure unsaid, only 201s a line).
@Suite("serve --upstream says what it could not relay", .serialized, .timeLimit(.minutes(10)))
struct RelayOutputBinaryTests {
  @Test("a tenant's 401 and an unreachable tenant: each a line naming who answered what")
  func refusalsSaid() async throws {
    let tenant = try CaptureServer { _ in
      .answer("401 Unauthorized", body: #"{"message":"Not Authorized","errorcode":0}"#)
    }
    defer { tenant.stop() }
    let serve = try await ServeProcess.start(["--upstream", "http://127.0.0.1:\(tenant.port)"])
    let refused = try await rawExchange(
      port: serve.port, ReadBackBinaryTests.registration(device: "PIXEL-401", attributes: [:]))
    #expect(refused.hasPrefix("HTTP/1.1 401"), "\(refused)")
    let said = try await serve.process.readLine { $0.contains("PIXEL-401") } ?? ""
    #expect(
      said.contains(
        "refused PIXEL-401 (401): the tenant answered 401, relayed to the app as it came"),
      "\(said)")
    try await serve.stop()

    let nowhere = try #require(RefusingPort())
    let lost = try await ServeProcess.start(["--upstream", "http://127.0.0.1:\(nowhere.port)"])
    let unreachable = try await rawExchange(
      port: lost.port, ReadBackBinaryTests.registration(device: "PIXEL-502", attributes: [:]))
    #expect(unreachable.hasPrefix("HTTP/1.1 502"), "\(unreachable)")
    let line = try await lost.process.readLine { $0.contains("PIXEL-502") } ?? ""
    #expect(
      line.contains("refused PIXEL-502 (502): RegScope's relay answered it (upstreamUnreachable)"),
      "\(line)")
    try await lost.stop()
    withExtendedLifetime(nowhere) {}
  }

  @Test("a tenant's 200: the line says the status the app got, not this server's own 201")
  func tenantStatusSaid() async throws {
    let tenant = try CaptureServer { _ in .answer("200 OK", body: #"{"received":true}"#) }
    defer { tenant.stop() }
    let serve = try await ServeProcess.start(["--upstream", "http://127.0.0.1:\(tenant.port)"])
    let relaying = try await serve.process.readLine { $0.hasPrefix("relaying") } ?? ""
    #expect(
      relaying.contains("the app's token is the tenant's to check, not this receiver's"),
      "\(relaying)")
    let answer = try await rawExchange(
      port: serve.port, ReadBackBinaryTests.registration(device: "PIXEL-200", attributes: [:]))
    #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
    let said = try await serve.process.readLine { $0.contains("to PIXEL-200") } ?? ""
    #expect(said.contains("answered 200 to PIXEL-200"), "\(said)")
    try await serve.stop()
  }
}
