import EngagementHTTP
import Foundation
import TestSupport
import Testing

/// Connections that never end: the server's time limits close them (#21).
@Suite("the server's connection limits", .serialized, .timeLimit(.minutes(2)))
struct ConnectionLimitTests {
  typealias Rig = WatchOverHTTPTests.Rig

  static var short: ConnectionLimits {
    var limits = ConnectionLimits()
    limits.idle = .seconds(1)
    limits.bodyProgress = .seconds(1)
    limits.connections = 8
    return limits
  }

  @Test("a connection that sends nothing, or half its headers, is closed by the server")
  func idleAndHalfHeaders() async throws {
    let rig = try await Rig(limits: Self.short)
    for bytes in ["", "POST /device/v1/registration HTTP/1.1\r\nHost: x\r\nContent-Ty"] {
      let ended = try await rawExchangeEnding(port: rig.port, Array(bytes.utf8), timeout: 8)
      #expect(ended.closedByServer, "\(bytes.debugDescription)")
    }
    await rig.stop()
  }

  @Test("a body that stops arriving is cut; a declared length past the limit is 413 at once")
  func stalledAndHugeBodies() async throws {
    let rig = try await Rig(limits: Self.short)
    let stalled = try await rawExchangeEnding(
      port: rig.port,
      Array(
        "POST /device/v1/registration HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(watchToken)\r\nContent-Length: 100\r\n\r\n{\"dev"
          .utf8), timeout: 8)
    #expect(stalled.closedByServer)
    for length in ["10000000000", "99999999999999999999999"] {
      let huge = try await rawExchangeEnding(
        port: rig.port,
        Array(
          "POST /device/v1/registration HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\nx"
            .utf8), timeout: 8)
      // A length past Int is refused by the HTTP parser itself (400); either way, at once.
      #expect(
        huge.answer.hasPrefix("HTTP/1.1 413") || huge.answer.hasPrefix("HTTP/1.1 400"),
        "\(length): \(huge.answer)")
      #expect(huge.closedByServer)
    }
    await rig.stop()
  }

  @Test("past the connection limit a new connection is closed at once; a real app still gets in")
  func connectionLimit() async throws {
    let rig = try await Rig(limits: Self.short)
    // Eight idle connections fill the limit; a ninth is closed without an answer.
    async let held = withThrowingTaskGroup(of: Bool.self) { group in
      for _ in 0..<8 {
        group.addTask { try await rawExchangeEnding(port: rig.port, [], timeout: 8).closedByServer }
      }
      return try await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    // Once the idle ones are closed (1 s), an app's registration is answered.
    let closedAll = try await held
    #expect(closedAll.allSatisfy { $0 })
    let (status, _, _) = try await rig.raw(
      "POST", "/device/v1/registration", headers: Rig.android,
      body: sdkBody(device: "AFTER", app: watchAppID))
    #expect(status == 201)
    await rig.stop()
  }
}
