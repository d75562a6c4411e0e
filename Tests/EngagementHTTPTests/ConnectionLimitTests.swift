import EngagementHTTP
import Foundation
import TestSupport
import Testing

/// Connections that never end: the server's time limits close them (#21).
@Suite("the server's connection limits", .serialized, .timeLimit(.minutes(10)))
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
    for bytes in ["", "POST /device/v1/registration HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty"] {
      let ended = try await rawExchangeEnding(port: rig.port, Array(bytes.utf8), timeout: 60)
      #expect(ended.closedByServer, "\(bytes.debugDescription)")
    }
    await rig.stop()
  }

  @Test("a pipelined request whose body stops is cut, though the request before it is answered")
  func stalledAfterAnswered() async throws {
    let rig = try await Rig(limits: Self.short)
    // The first registration is answered (by the fast path) while the second's body stalls.
    let stalled =
      "POST /device/v1/registration HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
      + "\(watchToken)\r\nContent-Length: 100\r\n\r\n{\"dev"
    let ended = try await rawExchangeEnding(
      port: rig.port,
      Array((FastPathTests.registration(device: "AMID-BEFORE") + stalled).utf8), timeout: 60)
    #expect(ended.answer.hasPrefix("HTTP/1.1 201"), "\(ended.answer.prefix(40))")
    #expect(ended.closedByServer)
    await rig.stop()
  }

  @Test("HTTP/1.0 is answered as HTTP/1.0 and closed, unless it asked for keep-alive")
  func http10() async throws {
    let rig = try await Rig(limits: Self.short)
    let plain = try await rawExchangeEnding(
      port: rig.port, Array("GET /api/stats HTTP/1.0\r\n\r\n".utf8), timeout: 60)
    #expect(plain.answer.hasPrefix("HTTP/1.0 200"), "\(plain.answer.prefix(60))")
    #expect(plain.answer.lowercased().contains("connection: close"))
    #expect(plain.closedByServer)
    // Kept open: read up to the answer's end, not the connection's.
    let kept = try await rawFirstAnswer(
      port: rig.port,
      Array("GET /api/stats HTTP/1.0\r\nConnection: keep-alive\r\n\r\n".utf8))
    #expect(kept.hasPrefix("HTTP/1.0 200"))
    #expect(kept.lowercased().contains("connection: keep-alive"))
    let modern = try await rawFirstAnswer(
      port: rig.port, Array("GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
    #expect(modern.hasPrefix("HTTP/1.1 200"))
    await rig.stop()
  }

  @Test("a body that stops arriving is cut; a declared length past the limit is 413 at once")
  func stalledAndHugeBodies() async throws {
    let rig = try await Rig(limits: Self.short)
    let stalled = try await rawExchangeEnding(
      port: rig.port,
      Array(
        "POST /device/v1/registration HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(watchToken)\r\nContent-Length: 100\r\n\r\n{\"dev"
          .utf8), timeout: 60)
    #expect(stalled.closedByServer)
    for length in ["10000000000", "99999999999999999999999"] {
      let huge = try await rawExchangeEnding(
        port: rig.port,
        Array(
          "POST /device/v1/registration HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(length)\r\n\r\nx"
            .utf8), timeout: 60)
      // A length past Int is refused by the HTTP parser itself (400); either way, at once.
      #expect(
        huge.answer.hasPrefix("HTTP/1.1 413") || huge.answer.hasPrefix("HTTP/1.1 400"),
        "\(length): \(huge.answer)")
      #expect(huge.closedByServer)
    }
    await rig.stop()
  }

  @Test("past the connection limit the connection idle longest makes room: a real app gets in")
  func connectionLimit() async throws {
    var limits = Self.short
    limits.idle = .seconds(60)  // only the limit may close them here
    let rig = try await Rig(limits: limits)
    let half = Array("POST /device/v1/registration HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
    // Twenty connections that never finish their headers, against a limit of eight: at least
    // twelve are closed long before the idle time.
    let closed = try await withThrowingTaskGroup(of: Bool.self) { group in
      for _ in 0..<20 {
        group.addTask {
          try await rawExchangeEnding(port: rig.port, half, timeout: 20).closedByServer
        }
      }
      // Once twelve were turned away, the server is full of silent connections; then a real
      // app registers, and is answered.
      var closed = 0
      while closed < 12, let ended = try await group.next() { closed += ended ? 1 : 0 }
      let (status, _, _) = try await rig.raw(
        "POST", "/device/v1/registration", headers: Rig.android,
        body: sdkBody(device: "AMID-FLOOD", app: watchAppID))
      #expect(status == 201)
      return try await group.reduce(into: closed) { $0 += $1 ? 1 : 0 }
    }
    #expect(closed >= 12, "\(closed) of 20 closed")
    await rig.stop()
  }
}
