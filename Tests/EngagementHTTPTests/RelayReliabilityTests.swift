import EngagementHTTP
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// The relay (`--upstream`) against tenants that misbehave: nothing it sends may take the relay
/// down, hang a device, or be put on the app's record as the tenant's.
@Suite("the relay against a hostile tenant", .serialized, .timeLimit(.minutes(10)))
struct RelayReliabilityTests {
  typealias Rig = WatchOverHTTPTests.Rig

  static func register(_ relay: Rig, _ device: String) async throws -> (Int, String) {
    let (status, _, body) = try await relay.raw(
      "POST", "/device/v1/registration", headers: Rig.android,
      body: sdkBody(device: device, app: watchAppID))
    return (status, body)
  }

  @Test("a tenant answering 000, 099 or 101: a 502 with the reason, and the relay stays up")
  func invalidStatuses() async throws {
    for line in ["000 Nothing", "099 Odd", "101 Switching Protocols"] {
      let tenant = try CaptureServer { request in
        String(decoding: request.body, as: UTF8.self).contains("GOOD")
          ? .answer("201 Created", body: #"{"received":true}"#) : .answer(line)
      }
      let relay = try await Rig(upstream: "http://127.0.0.1:\(tenant.port)")
      let (status, body) = try await Self.register(relay, "ODD")
      #expect(status == 502, "\(line): \(body)")
      #expect(body.contains("upstreamInvalid"), "\(line)")
      let good = try await Self.register(relay, "GOOD")
      #expect(good.0 == 201, "after \(line): \(good.1)")
      await relay.stop()
      tenant.stop()
    }
  }

  @Test(
    "a tenant that answers garbage or cuts its answer short: 502 upstreamInvalid, not 'unreachable'",
    arguments: [
      "SSH-2.0-OpenSSH_9.6\r\n\r\n",
      "HTTP/1.1 201 Created\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{\"rec",
    ])
  func invalidAnswers(_ answer: String) async throws {
    let tenant = try CaptureServer { _ in .bytes(Array(answer.utf8)) }
    let relay = try await Rig(upstream: "http://127.0.0.1:\(tenant.port)")
    let (status, body) = try await Self.register(relay, "ODD")
    #expect(status == 502, "\(body)")
    #expect(
      body.contains("upstreamInvalid") && body.contains("no answer an app can take"), "\(body)")
    await relay.stop()
    tenant.stop()
  }

  @Test("a tenant that dribbles its answer: the app gets 504 in the deadline; others still 201")
  func dribblingTenant() async throws {
    let tenant = try CaptureServer { request in
      guard String(decoding: request.body, as: UTF8.self).contains("SLOW") else {
        return .answer("201 Created", body: #"{"received":true}"#)
      }
      return .dribble(
        head: Array(
          "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            .utf8),
        pieces: Array(repeating: Array("1\r\nx\r\n".utf8), count: 600), every: 0.5)
    }
    let relay = try await Rig(
      upstream: "http://127.0.0.1:\(tenant.port)", relayDeadline: .seconds(2))
    let started = ContinuousClock.now
    async let slow = Self.register(relay, "SLOW")
    let others = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<5 { group.addTask { try await Self.register(relay, "FAST-\(index)").0 } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(others.allSatisfy { $0 == 201 }, "\(others)")
    let (status, body) = try await slow
    #expect(status == 504, "\(body)")
    #expect(body.contains("upstreamTimeout"))
    // The dribble takes 300 s; the relay's 504 comes at its 2 s deadline. The bound only tells
    // the two apart, with room for a machine running two whole test runs at once.
    #expect(ContinuousClock.now - started < .seconds(120))
    let timeline = try #require(await relay.server.watchedDevice("SLOW"))
    #expect(
      timeline.registrations.last?.status == 504 && timeline.registrations.last?.local == true)
    await relay.stop()
    tenant.stop()
  }

  @Test("when the app disconnects, the tenant call is abandoned and its connection closed")
  func appDisconnects() async throws {
    let tenant = try CaptureServer { _ in
      .dribble(
        head: Array(
          "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            .utf8),
        pieces: Array(repeating: Array("1\r\nx\r\n".utf8), count: 1200), every: 0.25)
    }
    // The relay's own deadline is far off: only the app leaving can end the tenant call soon.
    let relay = try await Rig(upstream: "http://127.0.0.1:\(tenant.port)")
    let body = sdkBody(device: "LEAVER", app: watchAppID)
    var head = "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\n"
    for (name, value) in Rig.android { head += "\(name): \(value)\r\n" }
    head += "content-length: \(body.utf8.count)\r\n\r\n"
    // The app gives up after a second and closes its connection.
    _ = try await rawExchangeEnding(port: relay.port, Array((head + body).utf8), timeout: 1)
    let cut = try await offThePool { tenant.waitForCutAnswers(1, seconds: 120) }
    #expect(cut, "the tenant was still sending to the relay")
    await relay.stop()
    tenant.stop()
  }

  @Test("200 requests at once to a slow but healthy tenant: every one 201, none invented")
  func busyButHealthy() async throws {
    let tenant = try CaptureServer { _ in
      .after(
        seconds: 1, CaptureServer.Reply.answerBytes("201 Created", body: #"{"received":true}"#))
    }
    let relay = try await Rig(upstream: "http://127.0.0.1:\(tenant.port)")
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<200 { group.addTask { try await Self.register(relay, "BUSY-\(index)").0 } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(
      statuses.filter { $0 != 201 }.isEmpty,
      "\(Dictionary(grouping: statuses) { $0 }.mapValues(\.count))")
    await relay.stop()
    tenant.stop()
  }

  @Test("a relay whose upstream leads back to it answers 508 at once, by its Via")
  func loop() async throws {
    // The tenant receives the relay's Via, and is itself a relay to... the first relay.
    let tenant = try CaptureServer { request in
      .answer("201 Created", body: request.header("Via") ?? "no via")
    }
    let relay = try await Rig(upstream: "http://127.0.0.1:\(tenant.port)")
    let (status, body) = try await Self.register(relay, "VIA")
    #expect(status == 201 && body.contains(Upstream.viaName), "\(body)")
    var headers = Rig.android
    headers.append(("via", "1.1 \(Upstream.viaName)"))
    let (looped, _, answer) = try await relay.raw(
      "POST", "/device/v1/registration", headers: headers,
      body: sdkBody(device: "LOOP", app: watchAppID))
    #expect(looped == 508 && answer.contains("loopDetected"), "\(answer)")
    await relay.stop()
    tenant.stop()
  }

  @Test("credentials in --upstream are never shown; a base with a query is refused with why")
  func upstreamURL() async throws {
    let relay = try #require(Upstream("http://user:secret@127.0.0.1:1/base/"))
    #expect(relay.base == "http://127.0.0.1:1/base")
    #expect(!relay.base.contains("secret"))
    let rig = try await Rig(upstream: "http://user:secret@127.0.0.1:1")
    let (status, body) = try await Self.register(rig, "CREDS")
    #expect(status == 502 && !body.contains("secret") && !body.contains("user:"), "\(body)")
    await rig.stop()
    #expect(Upstream("https://tenant.example/?x=1") == nil)
    #expect(Upstream.problem(with: "https://tenant.example/?x=1")?.contains("no query") == true)
    #expect(Upstream.problem(with: "ftp://x") != nil)
    // https anywhere; plain http to this machine only, its host as written.
    for allowed in [
      "https://mc1.device.marketingcloudapis.com", "http://127.0.0.1:8080", "http://localhost:1",
      "http://LOCALHOST:1", "http://[::1]:8080/base", "https://xn--bcher-kva.example/",
      "https://host:8443/base/",
    ] {
      #expect(Upstream.problem(with: allowed) == nil, "\(allowed)")
    }
    // A port no connection can use is refused, never read as none (port 80 asked silently).
    for port in ["99999999999999999999", "65536", "0"] {
      #expect(
        Upstream.problem(with: "http://127.0.0.1:\(port)")?.contains("from 1 to 65535") == true,
        "\(port)")
      #expect(Upstream("https://mc.example.com:\(port)/") == nil, "\(port)")
    }
    for refused in ["http://127.0.0.1%20.evil.example/", "http://192.168.1.5:8080"] {
      #expect(
        Upstream.problem(with: refused)?.contains("plain http only to this machine") == true,
        "\(refused)")
    }
  }

  @Test("an upstream at [::1]: the brackets are the URL's, not the address; relayed, 201")
  func ipv6Upstream() async throws {
    let tenant = try await Rig(host: "::1")
    let relay = try await Rig(upstream: "http://[::1]:\(tenant.port)")
    let (status, body) = try await Self.register(relay, "SIX")
    #expect(status == 201, "\(body)")
    #expect(await tenant.server.watchedDevice("SIX")?.registrationCount == 1)
    await relay.stop()
    await tenant.stop()
  }
}
