import Clocks
import EngagementHTTP
import Foundation
import HAR
import RegistrationCore
import Session
import SessionHTTP
import Synchronization
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// Plain registrations are answered from the event loop (`RegistrationFastPath`), everything
/// else by Hummingbird's full path: the two must answer, capture and judge alike, and keep a
/// connection's answers in its requests' order.
@Suite("the registration's fast path", .serialized, .timeLimit(.minutes(10)))
struct FastPathTests {
  final class Rig: Sendable {
    let server: LocalEngagementServer
    let front: EngagementHTTPServer
    let port: Int
    let captured = Captured()

    final class Captured: Sendable {
      let exchanges = Mutex<[CapturedExchange]>([])
    }

    init(fastPath: Bool) async throws {
      server = try LocalEngagementServer(
        settings: ServerSettings(appID: watchAppID, accessToken: watchToken, processingDelay: 300),
        store: ServerStore.inMemory(), clock: VirtualClock())
      let captured = self.captured
      front = try HTTPNetwork.front(for: server, options: ReceiverOptions(port: 0)) {
        $0.fastPath = fastPath
        $0.capture = { exchange in captured.exchanges.withLock { $0.append(exchange) } }
      }.front
      port = try await front.start()
    }

    /// Answers as they came, split from the connection's bytes.
    func send(_ requests: [String]) async throws -> [Answer] {
      Answer.split(try await rawExchange(port: port, Array(requests.joined().utf8)))
    }
  }

  struct Answer: Equatable {
    var statusLine: String
    /// Names lower-cased, in order; the token and the date stand for their kind.
    var headers: [String]
    var body: String

    var registrationID: Int? {
      let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
      return object?["registrationId"] as? Int
    }

    static func split(_ text: String) -> [Answer] {
      var answers: [Answer] = []
      var rest = Substring(text)
      while let end = rest.range(of: "\r\n\r\n") {
        let lines = rest[..<end.lowerBound].components(separatedBy: "\r\n")
        var headers: [String] = []
        var length = 0
        for line in lines.dropFirst() {
          let name = line.prefix { $0 != ":" }.lowercased()
          let value = line.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
          if name == "content-length" { length = Int(value) ?? 0 }
          let shown =
            name == "date"
            ? "date: (a date)"
            : name == "x-subscriber-token"
              ? "x-subscriber-token: rs-(\(value.count) chars)"
              : "\(name): \(value)"
          headers.append(shown)
        }
        let body = rest[end.upperBound...].utf8.prefix(length)
        answers.append(
          Answer(
            statusLine: lines[0], headers: headers, body: String(decoding: body, as: UTF8.self)))
        rest = Substring(
          String(decoding: rest[end.upperBound...].utf8.dropFirst(length), as: UTF8.self))
      }
      return answers
    }
  }

  static func registration(
    device: String, token: String = watchToken, extra: [(String, String)] = [],
    attributes: [String: String] = [:], close: Bool = false, version: String = "HTTP/1.1",
    host: String = "127.0.0.1"
  ) -> String {
    let body = sdkBody(device: device, app: watchAppID, attributes: attributes, uuid: device)
    var head =
      "POST /device/v1/registration \(version)\r\nhost: \(host)\r\naccept: application/json\r\n"
      + "content-type: application/json; charset=utf-8\r\nuser-agent: \(androidAgent)\r\n"
      + "authorization: Bearer \(token)\r\nx-sdk-version: 10.0.0\r\n"
    for (name, value) in extra { head += "\(name): \(value)\r\n" }
    if close { head += "connection: close\r\n" }
    return head + "content-length: \(body.utf8.count)\r\n\r\n" + body
  }

  @Test("a plain registration: the same answer, capture and judgement on either path")
  func sameOnBothPaths() async throws {
    var results: [(answers: [Answer], exchange: CapturedExchange?, device: DeviceWatch.Device?)] =
      []
    var fastAnswers: [Int] = []
    for fast in [true, false] {
      let rig = try await Rig(fastPath: fast)
      let answers = try await rig.send([
        Self.registration(device: "FAST-1"), Self.registration(device: "FAST-1", close: true),
      ])
      fastAnswers.append(rig.front.fastPathAnswers)
      let device = await rig.server.watchedDevice("FAST-1")
      await rig.front.stop()
      results.append((answers, rig.captured.exchanges.withLock { $0.last }, device))
    }
    // The fast server answered both itself; the other took neither.
    #expect(fastAnswers == [2, 0])
    let (fast, full) = (results[0], results[1])
    #expect(fast.answers.count == 2)
    #expect(fast.answers == full.answers)
    #expect(fast.answers.first?.statusLine == "HTTP/1.1 201 Created")
    let (mine, theirs) = (try #require(fast.exchange), try #require(full.exchange))
    #expect(mine.method == theirs.method && mine.status == theirs.status)
    #expect(URL(string: mine.url)?.path == URL(string: theirs.url)?.path)
    #expect(mine.requestHeaders == theirs.requestHeaders)
    #expect(mine.requestBody == theirs.requestBody && mine.responseBody == theirs.responseBody)
    #expect(mine.responseHeaders.map(\.name) == theirs.responseHeaders.map(\.name))
    #expect(mine.startedAt == theirs.startedAt && mine.error == theirs.error)
    let (one, other) = (try #require(fast.device), try #require(full.device))
    #expect(one.registrationCount == 2 && other.registrationCount == 2)
    #expect(one.findingCounts == other.findingCounts)
    #expect(one.tokenReturned == other.tokenReturned)
    #expect(one.registrations.map(\.changes) == other.registrations.map(\.changes))
  }

  @Test(
    "#51 keys by their bytes on either path: subscriber\\u212Aey is not subscriberKey, NFC and NFD attribute keys stay two"
  )
  func keysByBytesOnBothPaths() async throws {
    let body = sdkBody(device: "KEYS-1", app: watchAppID, key: "alice", uuid: "KEYS-1")
      .replacingOccurrences(
        of: #""attributes":[]"#,
        with:
          #""subscriber\u212Aey":"mallory","attributes":[{"key":"caf\u00e9","value":"1"},{"key":"cafe\u0301","value":"2"}]"#
      )
    let request =
      "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\n"
      + "authorization: Bearer \(watchToken)\r\ncontent-type: application/json\r\n"
      + "user-agent: \(androidAgent)\r\nconnection: close\r\n"
      + "content-length: \(body.utf8.count)\r\n\r\n\(body)"
    var read: [RegistrationPayload] = []
    for fast in [true, false] {
      let rig = try await Rig(fastPath: fast)
      let answers = try await rig.send([request])
      #expect(answers.first?.statusLine == "HTTP/1.1 201 Created", "\(answers)")
      let device = try #require(await rig.server.watchedDevice("KEYS-1"))
      #expect(device.findingCounts[.duplicateKey] == nil, "\(device.findingCounts)")
      read.append(try #require(device.lastSent))
      await rig.front.stop()
    }
    for payload in read {
      #expect(payload.subscriberKey == "alice")
      let keys = (payload.attributes ?? []).map { Array($0.key.utf8) }
      #expect(keys == [Array("caf\u{E9}".utf8), Array("cafe\u{301}".utf8)])
    }
    // The same bytes either way (`==` on the payload would call NFC and NFD equal).
    #expect(read.map { $0.encodedBytes() }.dropFirst().allSatisfy { $0 == read[0].encodedBytes() })
  }

  @Test("one connection naming another host: each capture's URL names the host of its request")
  func urlPerRequest() async throws {
    var urls: [[String]] = []
    for fast in [true, false] {
      let rig = try await Rig(fastPath: fast)
      let answers = try await rig.send([
        Self.registration(device: "HOST-1", host: "localhost"),
        Self.registration(device: "HOST-1", host: "localhost"),
        Self.registration(device: "HOST-1", close: true, host: "127.0.0.1"),
      ])
      #expect(answers.map(\.statusLine) == Array(repeating: "HTTP/1.1 201 Created", count: 3))
      await rig.front.stop()
      urls.append(rig.captured.exchanges.withLock { $0.map(\.url) })
    }
    #expect(urls[0] == urls[1])
    #expect(
      urls[0] == [
        "http://localhost/device/v1/registration", "http://localhost/device/v1/registration",
        "http://127.0.0.1/device/v1/registration",
      ])
  }

  @Test("what the fast path does not take is answered by the full path, as before")
  func handedOn() async throws {
    let rig = try await Rig(fastPath: true)
    // A body past what the watch keeps, a chunked body, another route: the full path's.
    let large = try await rig.send([
      Self.registration(
        device: "L-1", attributes: ["Big": String(repeating: "x", count: 9_000)], close: true)
    ])
    #expect(large.first?.statusLine == "HTTP/1.1 201 Created")
    let body = sdkBody(device: "C-1", app: watchAppID, uuid: "C-1")
    let chunked = try await rig.send([
      "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\n"
        + "authorization: Bearer \(watchToken)\r\ncontent-type: application/json\r\n"
        + "transfer-encoding: chunked\r\nconnection: close\r\n\r\n"
        + String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"
    ])
    #expect(chunked.first?.statusLine == "HTTP/1.1 201 Created")
    // A fault (S7) answers every registration while it holds, as the full path gives it.
    await rig.server.setFault(ServerFault(kind: .status(503, retryAfter: 30)))
    let faulted = try await rig.send([Self.registration(device: "F-1", close: true)])
    #expect(faulted.first?.statusLine == "HTTP/1.1 503 Service Unavailable")
    #expect(faulted.first?.headers.contains("retry-after: 30") == true)
    #expect(rig.front.fastPathAnswers == 0)
    await rig.server.setFault(nil)
    let plain = try await rig.send([Self.registration(device: "P-1", close: true)])
    #expect(plain.first?.statusLine == "HTTP/1.1 201 Created")
    #expect(rig.front.fastPathAnswers == 1)
    await rig.front.stop()
  }

  @Test(
    "a refusal is the front's rules', answered alike on either path and checked once",
    arguments: [
      ("a wrong token (S1): 401, closed", "wrong-token-0000", [], false, "127.0.0.1"),
      ("a required field missing (S1): 400", watchToken, [], true, "127.0.0.1"),
      ("a foreign Host: 421", watchToken, [], false, "rebind.example"),
      ("two Hosts: 400", watchToken, [("host", "127.0.0.1")], false, "127.0.0.1"),
    ] as [(String, String, [(String, String)], Bool, String)])
  func refusedOnce(
    _ why: String, token: String, extra: [(String, String)], noDevice: Bool, host: String
  ) async throws {
    var results: [(answers: [Answer], exchange: CapturedExchange?)] = []
    for fast in [true, false] {
      let rig = try await Rig(fastPath: fast)
      var request = Self.registration(
        device: "RF-1", token: token, extra: extra, close: true, host: host)
      // The same length: the declared one still holds.
      if noDevice { request = request.replacingOccurrences(of: "deviceID", with: "deviceXX") }
      let answers = try await rig.send([request])
      // Answered where it was read, not handed on to be checked again: the fast path counts
      // the registrations the server answered (the token, the body), not the head's refusals.
      let counted = fast && !why.contains("Host") ? 1 : 0
      #expect(rig.front.fastPathAnswers == counted, "\(why)")
      await rig.front.stop()
      results.append((answers, rig.captured.exchanges.withLock { $0.last }))
    }
    let (fast, full) = (results[0], results[1])
    #expect(fast.answers.count == 1, "\(why)")
    #expect(fast.answers == full.answers, "\(why)")
    #expect(fast.answers.first?.statusLine.hasPrefix("HTTP/1.1 4") == true, "\(why)")
    #expect((fast.exchange == nil) == (full.exchange == nil), "\(why)")
    if let mine = fast.exchange, let theirs = full.exchange {
      #expect(mine.status == theirs.status && mine.requestBody == theirs.requestBody)
      #expect(
        mine.responseHeaders == theirs.responseHeaders && mine.responseBody == theirs.responseBody)
    }
  }

  @Test("pipelined requests are answered in their order, whichever path takes each")
  func order() async throws {
    let rig = try await Rig(fastPath: true)
    let large = ["Big": String(repeating: "y", count: 9_000)]
    // Handed on, then one the fast path would take: while the first is unanswered, the
    // second goes the same way.
    let mixed = try await rig.send([
      Self.registration(device: "O-1", attributes: large),
      Self.registration(device: "O-2", close: true),
    ])
    #expect(mixed.map(\.registrationID) == [1, 2])
    #expect(rig.front.fastPathAnswers == 0)
    // Three it takes, sent at once: each waits for the one before to be answered.
    let fast = try await rig.send([
      Self.registration(device: "O-3"), Self.registration(device: "O-4"),
      Self.registration(device: "O-5", close: true),
    ])
    #expect(fast.map(\.statusLine) == Array(repeating: "HTTP/1.1 201 Created", count: 3))
    #expect(fast.map(\.registrationID) == [3, 4, 5])
    #expect(rig.front.fastPathAnswers == 3)
    await rig.front.stop()
  }

  @Test("a client that shuts its side after sending still gets every answer, in order")
  func halfClosed() async throws {
    let rig = try await Rig(fastPath: true)
    let text = try await rawExchange(
      port: rig.port,
      Array((Self.registration(device: "HC-1") + Self.registration(device: "HC-2")).utf8),
      halfClose: true)
    let answers = Answer.split(text)
    #expect(answers.map(\.statusLine) == ["HTTP/1.1 201 Created", "HTTP/1.1 201 Created"])
    #expect(answers.map(\.registrationID) == [1, 2])
    #expect(rig.front.fastPathAnswers == 2)
    await rig.front.stop()
  }

  @Test(
    "what a client sends after asking to close (or in HTTP/1.0) is not taken, on either path",
    arguments: ["HTTP/1.1", "HTTP/1.0"])
  func closeThenMore(version: String) async throws {
    for fast in [true, false] {
      let rig = try await Rig(fastPath: fast)
      let answers = try await rig.send([
        Self.registration(device: "CL-1", close: version == "HTTP/1.1", version: version),
        Self.registration(device: "CL-2"),
      ])
      #expect(answers.map(\.statusLine) == ["\(version) 201 Created"], "fast path: \(fast)")
      #expect(await rig.server.watchedDevice("CL-2") == nil, "fast path: \(fast)")
      #expect(rig.front.fastPathAnswers == (fast ? 1 : 0))
      await rig.front.stop()
    }
  }

  @Test("a request whose body breaks after a registration still being answered: that answer goes")
  func brokenAfterTaken() async throws {
    for fast in [true, false] {
      let rig = try await Rig(fastPath: fast)
      // A chunked body whose chunk size is not hexadecimal: the parser gives up mid-request.
      let broken =
        "POST /device/v1/registration HTTP/1.1\r\nhost: 127.0.0.1\r\n"
        + "transfer-encoding: chunked\r\n\r\nzz\r\n"
      let answers = try await rig.send([Self.registration(device: "BR-1"), broken])
      #expect(answers.map(\.statusLine) == ["HTTP/1.1 201 Created"], "fast path: \(fast)")
      #expect(await rig.server.watchedDevice("BR-1") != nil)
      await rig.front.stop()
    }
  }

  @Test("an HTTP/1.0 registration is answered as HTTP/1.0, and its connection closed")
  func http10() async throws {
    let rig = try await Rig(fastPath: true)
    let answers = try await rig.send([Self.registration(device: "H-1", version: "HTTP/1.0")])
    #expect(answers.first?.statusLine == "HTTP/1.0 201 Created")
    #expect(rig.front.fastPathAnswers == 1)
    await rig.front.stop()
  }
}
