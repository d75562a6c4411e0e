import EngagementHTTP
import Foundation
import RegistrationCore
import Synchronization
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite(
  "the server under hostile requests: clear answers, no crash, no leak", .serialized,
  .timeLimit(.minutes(10)))
struct HTTPHardeningTests {
  @Test("a huge Retry-After, status or count in a fault is a 400 naming the field, not a crash")
  func hugeFaultValues() async throws {
    let rig = try await LoopbackRig.start()
    for (body, field) in [
      (#"{"status":429,"retryAfter":1e20,"times":1}"#, "retryAfter"),
      (#"{"status":1e20}"#, "status"), (#"{"status":503,"times":1e20}"#, "times"),
      (#"{"status":503.5}"#, "status"), (#"{"mode":"down","seconds":1e300}"#, "seconds"),
      (#"{"status":503,"mode":"hang"}"#, "mode"), (#"{"mode":"AAA"}"#, "mode"),
    ] {
      let (status, answer) = try await rig.request("POST", "api/faults", body: Data(body.utf8))
      #expect(status == 400, "\(body)")
      #expect(answer["field"] as? String == field, "\(body): \(answer)")
    }
    #expect(try await rig.get("api/stats").0 == 200)
    await rig.stop()
  }

  @Test(
    "a head past 80 KB (a 100 KB before=) or 1,000 headers, or bytes that are not HTTP: a status and a reason"
  )
  func unreadableHeads() async throws {
    let rig = try await LoopbackRig.start()
    let port = try #require(rig.baseURL.port)
    let long =
      "GET /api/devices?before=\(String(repeating: "A", count: 100_000)) HTTP/1.1\r\n"
      + "Host: 127.0.0.1\r\n\r\n"
    let tooLong = try await rawExchange(port: port, Array(long.utf8))
    #expect(tooLong.hasPrefix("HTTP/1.1 431"), "\(tooLong.prefix(200))")
    #expect(tooLong.contains(#""error":"headTooLarge""#) && tooLong.contains("80 KB"))
    // Hummingbird's own channel reads at most 1,000 headers (HTTP1ServerChannel follows it):
    // a registration with more is refused before any route sees it; 900 are read.
    func head(_ path: String, headers count: Int) -> [UInt8] {
      Array(
        ("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + String(repeating: "X-Pad: 1\r\n", count: count) + "\r\n").utf8)
    }
    let many = try await rawExchange(port: port, head("/device/v1/registration", headers: 1_000))
    #expect(many.hasPrefix("HTTP/1.1 431"), "\(many.prefix(200))")
    #expect(many.contains(#""error":"headTooLarge""#) && many.contains("1,000 headers"))
    let fewer = try await rawExchange(port: port, head("/api/stats", headers: 900))
    #expect(fewer.hasPrefix("HTTP/1.1 200"), "\(fewer.prefix(200))")
    let garbage = try await rawExchange(port: port, Array("\u{01}\u{02} NOT HTTP\r\n\r\n".utf8))
    #expect(garbage.hasPrefix("HTTP/1.1 400"), "\(garbage.prefix(200))")
    #expect(garbage.contains(#""error":"notHTTP""#))
    #expect(try await rig.get("api/stats").0 == 200)
    await rig.stop()
  }

  @Test("garbage right behind a registration on one connection: the registration gets its 201")
  func pipelinedGarbage() async throws {
    let rig = try await LoopbackRig.start()
    let port = try #require(rig.baseURL.port)
    let body = #"{"deviceID":"PIPE","etAppId":"\#(appID)","platform":"iOS"}"#
    let request =
      "POST /device/v1/registration HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      + "Authorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)\u{01}\u{02} garbage\r\n\r\n"
    let answer = try await rawExchange(port: port, Array(request.utf8))
    #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer.prefix(120))")
    #expect(!answer.contains("notHTTP"), "no answer of its own for the garbage")
    await rig.stop()
  }

  @Test("stopping the moment a registration arrives answers it first: its 201 is never cut")
  func stopAnswersWhatArrived() async throws {
    for attempt in 0..<5 {
      let rig = try await LoopbackRig.start()
      let port = try #require(rig.baseURL.port)
      let stopping = StopOnce(rig.front)
      // What a QA run does when its last step passes: stop at once (and then exit).
      rig.server.changes.observe { change in
        if change == .watched { stopping.stop() }
      }
      let body = #"{"deviceID":"STOP-\#(attempt)","etAppId":"\#(appID)","platform":"iOS"}"#
      let client = try #require(LoopbackClient(port: port))
      client.send(
        "POST /device/v1/registration HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + "Authorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
          + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
      for await _ in stopping.done { break }
      // Once stop returns the process may exit: the answer must already be on its way.
      let answer = client.receiveWaiting()
      #expect(answer.hasPrefix("HTTP/1.1 201"), "attempt \(attempt): \(answer.prefix(80))")
      await rig.stop()
    }
  }

  @Test("S1 the bearer scheme in any case; the control routes need the token too")
  func authorization() async throws {
    let rig = try await LoopbackRig.start(delay: 0)
    let seed = Data(#"{"deviceID":"D1","etAppId":"\#(appID)","platform":"iOS"}"#.utf8)
    let (lower, _) = try await rig.request(
      "POST", "device/v1/registration", body: seed,
      headers: ["authorization": "bearer \(token)", "Content-Type": "application/json"])
    #expect(lower == 201)
    for (method, path) in [
      ("POST", "api/faults"), ("DELETE", "api/faults"), ("PUT", "api/demographics"),
    ] {
      let (status, answer) = try await rig.request(
        method, path, body: Data(#"{"status":503,"attributes":[]}"#.utf8), headers: [:])
      #expect(status == 401, "\(method) \(path)")
      #expect(answer["error"] as? String == "unauthorized")
    }
    let stats = try await rig.get("api/stats").1
    #expect(stats["fault"] == nil)
    #expect(stats["definedAttributes"] == nil)
    await rig.stop()
  }

  @Test("405 with Allow for a known path and another method; 404 for an unknown path")
  func methods() async throws {
    let rig = try await LoopbackRig.start()
    let (patch, answer) = try await rig.request("PATCH", "api/faults")
    #expect(patch == 405)
    #expect(answer["error"] as? String == "methodNotAllowed")
    #expect(try await rig.request("DELETE", "api/stats").0 == 405)
    #expect(try await rig.get("api/nothing").0 == 404)
    await rig.stop()
  }

  @Test("a body is never read before it is wanted: 10 MB declared is 413 at once, token or not")
  func tokenBeforeBody() async throws {
    let rig = try await LoopbackRig.start()
    let huge = [UInt8](repeating: UInt8(ascii: "a"), count: 10 * 1024 * 1024)
    // The declared length is refused first, before the token is looked at.
    let without = try await rig.rawPost("device/v1/registration", body: huge, authorized: false)
    #expect(without.hasPrefix("HTTP/1.1 413") && without.contains("bodyTooLarge"))
    // A small body without the token is 401, unread beyond what names the device.
    let small = try await rig.rawPost(
      "device/v1/registration", body: Array("{}".utf8), authorized: false)
    #expect(small.hasPrefix("HTTP/1.1 401") && small.contains("unauthorized"))
    let with = try await rig.rawPost("device/v1/registration", body: huge)
    #expect(with.hasPrefix("HTTP/1.1 413"), "\(with.prefix(200))")
    await rig.stop()
  }

  @Test("C1 and bidi controls in data come out of the API as \\u escapes")
  func apiEscapesControls() async throws {
    let rig = try await LoopbackRig.start(delay: 0)
    let body = Data(
      #"{"deviceID":"D\u009b1m","etAppId":"\#(appID)","platform":"iOS","tags":["\u202eevil"],"attributes":[{"key":"CODE","value":"\u001b]0;x\u0007"}]}"#
        .utf8)
    let (status, _) = try await rig.request(
      "POST", "device/v1/registration", body: body,
      headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"])
    #expect(status == 201)
    await rig.server.processDue()
    let url = try #require(URL(string: "api/devices", relativeTo: rig.baseURL))
    let (data, _) = try await URLSession.shared.data(from: url)
    let text = String(decoding: data, as: UTF8.self)
    #expect(
      !text.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E || $0.value == 0x1B })
    #expect(text.contains(#"\u009b"#) && text.contains(#"\u202e"#))
    let devices = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let device = (devices?["devices"] as? [[String: Any]])?.first
    #expect(device?["deviceID"] as? String == "D\u{9B}1m")
    await rig.stop()
  }
}

/// Stops a front once, from a synchronous callback; `done` yields when it has stopped.
final class StopOnce: Sendable {
  private let front: EngagementHTTPServer
  private let started = Mutex(false)
  let done: AsyncStream<Void>
  private let finished: AsyncStream<Void>.Continuation

  init(_ front: EngagementHTTPServer) {
    self.front = front
    (done, finished) = AsyncStream.makeStream()
  }

  func stop() {
    guard
      started.withLock({ started in
        defer { started = true }
        return !started
      })
    else { return }
    let (front, finished) = (self.front, self.finished)
    Task {
      await front.stop()
      finished.yield()
      finished.finish()
    }
  }
}
