import Clocks
import EngagementHTTP
import RegistrationCore
import Session
import SessionHTTP
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// A registration comes into the server one way, `receiveAll(taking:)`, whichever path
/// brought it: the front's fast path, Hummingbird's route (what the fast path hands on), or a
/// caller in the same process. `entered` counts what came through that entry.
@Suite("the server's one way in", .serialized, .timeLimit(.minutes(10)))
struct OneEntryTests {
  static func server() throws -> LocalEngagementServer {
    try LocalEngagementServer(
      settings: ServerSettings(appID: watchAppID, accessToken: watchToken, processingDelay: 300),
      store: ServerStore.inMemory(), clock: VirtualClock())
  }

  /// A registration as an Android app writes it; `chunked` frames its body the way the fast
  /// path leaves to Hummingbird, and so does a body larger than the watch keeps whole.
  static func request(
    device: String, token: String = watchToken, chunked: Bool = false, large: Bool = false
  ) -> [UInt8] {
    let attributes = large ? ["Notes": String(repeating: "n", count: DeviceWatch.bodyLimit)] : [:]
    let body = sdkBody(device: device, app: watchAppID, attributes: attributes, uuid: device)
    let head =
      "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\nuser-agent: \(androidAgent)\r\n"
      + "content-type: application/json; charset=utf-8\r\nauthorization: Bearer \(token)\r\n"
      + "connection: close\r\n"
    let framed =
      chunked
      ? "transfer-encoding: chunked\r\n\r\n\(String(body.utf8.count, radix: 16))\r\n\(body)\r\n0\r\n\r\n"
      : "content-length: \(body.utf8.count)\r\n\r\n\(body)"
    return Array((head + framed).utf8)
  }

  @Test("the fast path, Hummingbird's route and an in-process caller all land in the one entry")
  func everyPathLandsInTheEntry() async throws {
    let server = try Self.server()
    let front = try HTTPNetwork.front(for: server, options: ReceiverOptions(port: 0)).front
    let port = try await front.start()
    var entered: Int { server.entered.load(ordering: .relaxed) }
    // The fast path answers a plain registration itself.
    let fast = try await rawExchange(port: port, Self.request(device: "FAST"))
    #expect(fast.hasPrefix("HTTP/1.1 201"))
    #expect(front.fastPathAnswers == 1)
    #expect(entered == 1)
    // A chunked body and a large one are handed on: Hummingbird's route receives them.
    for (device, chunked) in [("CHUNKED", true), ("LARGE", false)] {
      let answer = try await rawExchange(
        port: port, Self.request(device: device, chunked: chunked, large: !chunked))
      #expect(answer.hasPrefix("HTTP/1.1 201"), "\(device)")
    }
    #expect(front.fastPathAnswers == 1)
    #expect(entered == 3)
    // A refusal comes in the same way, whichever path answers it.
    let refused = try await rawExchange(
      port: port, Self.request(device: "REFUSED", token: "not-the-token"))
    #expect(refused.hasPrefix("HTTP/1.1 401"))
    #expect(entered == 4)
    await front.stop()
    // In process: a batch of one through the same entry.
    let answer = await server.receive(
      authorization: "Bearer \(watchToken)",
      body: Array(sdkBody(device: "IN-PROCESS", app: watchAppID).utf8))
    guard case .respond(201, _, _) = answer else {
      Issue.record("in process: \(answer)")
      return
    }
    #expect(entered == 5)
    // Each of them is the server's: received, and its device in the watch.
    #expect(await server.stats().received == 4)
    for device in ["FAST", "CHUNKED", "LARGE", "REFUSED", "IN-PROCESS"] {
      #expect(await server.watchedDevice(device) != nil, "\(device)")
    }
  }
}
