import Foundation
import RegistrationCore
import RegistrationEngine
import Testing

@testable import SessionHTTP

@Suite("HTTP transport")
struct HTTPTransportTests {
  @Test("R4.1 no connection is a transport failure, retried like any other")
  func connectionRefused() async throws {
    // Port 9 (discard) is closed on loopback here; nothing listens on it.
    let configuration = try RegistrationConfigurationBuilder()
      .setApplicationId("995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47")
      .setAccessToken("test-access-token-0123456789").setMarketingCloudServerUrl(
        "http://127.0.0.1:9"
      )
      .build()
    var send = InFlightSend(
      id: 1, attempt: 1, reason: .initial, payload: RegistrationPayload(), body: Array("{}".utf8),
      startedAt: .zero, coveredSeq: 0, clearedKeys: [])
    send.payload.sdkVersion = "8.1.0"
    let request = RegistrationRequest(send: send, configuration: configuration)
    let result = await HTTPTransport().send(request)
    guard case .transportFailed(let message) = result else {
      Issue.record("expected a transport failure, got \(result)")
      return
    }
    #expect(!message.isEmpty)
  }

  @Test("network errors read as a person reads them")
  func errorWords() {
    #expect(HTTPTransport.describe(errno: 111) == "connection refused")
    #expect(HTTPTransport.describe(errno: 110) == "timed out")
    #expect(HTTPTransport.describe(errno: 9999).hasPrefix("network error 9999"))
  }
}
