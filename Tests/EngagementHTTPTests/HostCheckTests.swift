import EngagementHTTP
import Foundation
import TestSupport
import Testing

/// DNS rebinding: a page on a name its owner points at 127.0.0.1 must not read or drive the
/// receiver through a visitor's browser.
@Suite("the receiver answers only to addresses and names it was given")
struct HostCheckTests {
  typealias Rig = WatchOverHTTPTests.Rig

  func get(_ rig: Rig, host: String, path: String = "/api/devices") async throws -> String {
    try await rawExchange(
      port: rig.port,
      Array("GET \(path) HTTP/1.1\r\nhost: \(host)\r\nconnection: close\r\n\r\n".utf8))
  }

  @Test("a foreign name gets 421 saying why, on the API, the controls and the device routes")
  func foreignName() async throws {
    let rig = try await Rig()
    for path in ["/api/devices", "/api/stats", "/openapi.json"] {
      let answer = try await get(rig, host: "rebind.attacker.example:8080", path: path)
      #expect(answer.hasPrefix("HTTP/1.1 421"), "\(path)")
      #expect(answer.contains("--host-name rebind.attacker.example"))
    }
    let body = sdkBody(device: "R1", app: watchAppID)
    let post = try await rawExchange(
      port: rig.port,
      Array(
        ("POST /device/v1/registration HTTP/1.1\r\nhost: evil.example\r\nauthorization: Bearer \(watchToken)\r\n"
          + "content-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)").utf8))
    #expect(post.hasPrefix("HTTP/1.1 421"))
    await rig.stop()
  }

  @Test("a name that only starts like loopback is foreign: the fast path takes loopback alone")
  func loopbackLookalikes() async throws {
    let rig = try await Rig()
    for host in [
      "127.0.0.1.rebind.example", "localhost.rebind.example:8080", "localhostx",
      "127.0.0.10.rebind.example",
    ] {
      let answer = try await get(rig, host: host)
      #expect(answer.hasPrefix("HTTP/1.1 421"), "\(host): \(answer.prefix(80))")
    }
    await rig.stop()
  }

  @Test("loopback, the emulator's 10.0.2.2, a LAN address, IPv6 and localhost are answered")
  func addresses() async throws {
    let rig = try await Rig()
    for host in [
      "127.0.0.1:8080", "10.0.2.2:8080", "192.168.1.20", "[::1]:8080", "localhost", "LOCALHOST:1",
    ] {
      let answer = try await get(rig, host: host)
      #expect(answer.hasPrefix("HTTP/1.1 200"), "\(host): \(answer.prefix(80))")
    }
    await rig.stop()
  }

  @Test(
    "an authority that is not host[:port] is refused, on the API and on the fast path's route")
  func malformedAuthority() async throws {
    let rig = try await Rig()
    let body = sdkBody(device: "R2", app: watchAppID)
    for host in [
      "127.0.0.1:\(rig.port)@evil.com", "127.0.0.1:80/x", "127.0.0.1:", "127.0.0.1:123456",
      "10.0.2.2 evil.com", "[::1]x",
    ] {
      let answer = try await get(rig, host: host)
      #expect(answer.hasPrefix("HTTP/1.1 421"), "\(host): \(answer.prefix(80))")
      let post = try await rawExchange(
        port: rig.port,
        Array(
          ("POST /device/v1/registration HTTP/1.1\r\nhost: \(host)\r\nauthorization: Bearer \(watchToken)\r\n"
            + "content-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)").utf8))
      #expect(post.hasPrefix("HTTP/1.1 421"), "\(host): \(post.prefix(80))")
    }
    await rig.stop()
  }

  @Test("two Host headers (loopback first) are a 400, on the API and on the fast path's route")
  func twoHosts() async throws {
    let rig = try await Rig()
    let twice = "host: 127.0.0.1\r\nhost: evil.example\r\n"
    let answer = try await rawExchange(
      port: rig.port,
      Array("GET /api/devices HTTP/1.1\r\n\(twice)connection: close\r\n\r\n".utf8))
    #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(120))")
    #expect(answer.contains("more than one Host"))
    let body = sdkBody(device: "R3", app: watchAppID)
    let post = try await rawExchange(
      port: rig.port,
      Array(
        ("POST /device/v1/registration HTTP/1.1\r\n\(twice)authorization: Bearer \(watchToken)\r\n"
          + "content-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)").utf8))
    #expect(post.hasPrefix("HTTP/1.1 400"), "\(post.prefix(120))")
    await rig.stop()
  }
}
