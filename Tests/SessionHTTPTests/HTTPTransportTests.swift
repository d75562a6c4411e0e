import Foundation
import OutboundHTTP
import RegistrationCore
import RegistrationEngine
import TestSupport
import Testing

@testable import SessionHTTP

@Suite("HTTP transport", .timeLimit(.minutes(10)))
struct HTTPTransportTests {
  /// A registration of SDK 8.1.0 for the server at `server`.
  static func request(to server: String) throws -> RegistrationRequest {
    let configuration = try RegistrationConfigurationBuilder()
      .setApplicationId("995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47")
      .setAccessToken("test-access-token-0123456789").setMarketingCloudServerUrl(server)
      .build()
    var send = InFlightSend(
      id: 1, attempt: 1, reason: .initial, payload: RegistrationPayload(), body: Array("{}".utf8),
      startedAt: .zero, coveredSeq: 0, clearedKeys: [])
    send.payload.sdkVersion = "8.1.0"
    return RegistrationRequest(send: send, configuration: configuration)
  }

  @Test("R4.1 no connection is a transport failure in words, retried like any other")
  func connectionRefused() async throws {
    // Port 9 (discard) is closed on loopback here; nothing listens on it.
    let result = await HTTPTransport().send(try Self.request(to: "http://127.0.0.1:9"))
    #expect(result == .transportFailed("connection refused"), "\(result)")
  }

  /// #52: a server answering a status below 100 trapped AsyncHTTPClient (exit 132), so a
  /// device pointed at it took regscope down. Through OutboundHTTP it is a failed send.
  @Test(
    "R4.1 a server answering status 099 or 000 is a failed send in words, not a trap",
    arguments: ["099 Odd", "000 Nothing"])
  func statusBelow100(status: String) async throws {
    let server = try CaptureServer { _ in .answer(status) }
    defer { server.stop() }
    let result = await HTTPTransport().send(
      try Self.request(to: "http://127.0.0.1:\(server.port)"))
    guard case .transportFailed(let words) = result else {
      Issue.record("expected a failed send, got \(result)")
      return
    }
    #expect(words.contains("which is not an HTTP answer an app can take"), "\(words)")
    #expect(server.requests.count == 1)
  }

  @Test("an answer past 1 MiB keeps its status and its first MiB; the rest is dropped")
  func longAnswer() async throws {
    let body = String(repeating: "x", count: 3 << 20)
    let server = try CaptureServer { _ in .answer("201 Created", body: body) }
    defer { server.stop() }
    let result = await HTTPTransport().send(
      try Self.request(to: "http://127.0.0.1:\(server.port)"))
    guard case .answered(let status, _, let kept, _) = result else {
      Issue.record("expected an answer, got \(result)")
      return
    }
    #expect(status == 201)
    #expect(kept?.utf8.count == HTTPTransport.largestAnswer)
  }

  @Test("the request goes out as the SDK's: its path, headers and body, one connection")
  func requestAsSent() async throws {
    let server = try CaptureServer(status: 201)
    defer { server.stop() }
    let request = try Self.request(to: "http://127.0.0.1:\(server.port)/base/")
    let result = await HTTPTransport().send(request)
    guard case .answered(201, _, _, _) = result else {
      Issue.record("expected a 201, got \(result)")
      return
    }
    let seen = try #require(server.requests.first)
    #expect(seen.method == "POST")
    #expect(seen.path == request.url.path)
    #expect(seen.body == request.body)
    #expect(seen.header("Connection") == "close")
    #expect(seen.header("Host") == "127.0.0.1:\(server.port)")
    for header in request.headers {
      #expect(seen.header(header.name) == header.value, "\(header.name)")
    }
  }

  /// Foundation reads `:99999999999999999999` as no port at all: the send went to port 80.
  @Test("a port that cannot be one is a URL not valid, never the default port asked instead")
  func unreadablePort() async throws {
    for port in ["99999999999999999999", "65536", "0"] {
      #expect(OutboundHTTP.Target(url: "http://127.0.0.1:\(port)/") == nil, "\(port)")
      let result = await HTTPTransport().send(try Self.request(to: "http://127.0.0.1:\(port)"))
      #expect(result == .transportFailed("the server URL is not valid"), "\(port): \(result)")
    }
    #expect(OutboundHTTP.Target(url: "http://[::1]:8080/")?.port == 8080)
    // The brackets are the URL's: the address a connection resolves is bare.
    let six = OutboundHTTP.Target(url: "http://[::1]:8080/base")
    #expect(six?.host == "::1" && six?.hostHeader == "[::1]:8080", "\(String(describing: six))")
    #expect(OutboundHTTP.Target(url: "https://user@mc.example.com/")?.port == 443)
  }

  @Test("each failure read as a person reads it")
  func failureWords() {
    #expect(HTTPTransport.describe(.deadline, timeout: 30) == "timed out after 30 s")
    #expect(HTTPTransport.describe(.closedEarly, timeout: 30) == "the connection was dropped")
    #expect(
      HTTPTransport.describe(.unreachable("connection refused"), timeout: 1) == "connection refused"
    )
    #expect(
      HTTPTransport.describe(.invalidStatus(99), timeout: 1).hasPrefix(
        "the server answered status 99"))
  }
}
