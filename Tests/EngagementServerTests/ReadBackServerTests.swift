import Clocks
import Foundation
import RegistrationCore
import Synchronization
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// "Did it arrive?" on a relaying server in virtual time (#46): the tenant asked only once the
/// window has passed after its 2xx, never for the relay's own answers, paused by a 429, and
/// its answer on the timeline, in each field's story, in explain and in the event stream.
@Suite("the read-back on a relaying server", .timeLimit(.minutes(10)))
struct ReadBackServerTests {
  /// The lookups asked for, "key/device", in order.
  final class AskLog: Sendable {
    let lock = Mutex<[String]>([])
  }

  final class Rig: Sendable {
    let clock = VirtualClock(start: Instant(1_000))
    let server: LocalEngagementServer
    let asked = AskLog()
    let said: AsyncStream<String>
    private let loop: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// `during`: run while the tenant is asked (a registration arriving mid-lookup).
    init(
      answer: @escaping @Sendable (String, Int) -> PushAddressAnswer,
      during: @escaping @Sendable (LocalEngagementServer, Int) async -> Void = { _, _ in }
    ) async throws {
      server = try LocalEngagementServer(
        settings: ServerSettings(appID: appID, accessToken: "token", processingDelay: 10),
        store: ServerStore.inMemory(), clock: clock)
      let (stream, said) = AsyncStream.makeStream(of: String.self)
      self.said = stream
      server.changes.observe { change in
        if case .event(.readBack(_, let summary, _), _) = change { said.yield(summary) }
      }
      await server.startReadBacks(window: 900)
      let asked = self.asked
      let server = self.server
      loop.withLock {
        $0 = Task {
          await server.runReadBacks { key, device in
            let count = asked.lock.withLock {
              $0.append("\(key)/\(device)")
              return $0.count
            }
            await during(server, count)
            return answer(device, count)
          }
        }
      }
      await settled()
    }

    func stop() { loop.withLock { $0?.cancel() } }

    /// A registration relayed and answered `status` by the tenant (or by the relay itself).
    func relayed(
      _ device: String, key: String? = "user-1",
      attributes: [String: String] = ["FirstName": "Ada"],
      status: Int = 201, local: Bool = false
    ) async {
      await server.recordRelayed(
        body: Array(sdkBody(device: device, key: key, attributes: attributes).utf8),
        facts: RequestFacts(userAgent: androidAgent), receivedAt: clock.now(), status: status,
        retryAfter: nil, issuedToken: nil, local: local)
    }

    /// Waits until the read-back loop sleeps on the clock again.
    func settled() async {
      while clock.sleepers == 0 { await Task.yield() }
    }

    func advance(by seconds: Double) async {
      clock.advance(by: seconds)
      await Task.yield()
      await settled()
    }

    var askedSoFar: [String] { asked.lock.withLock { $0 } }

    func next() async -> String? {
      var iterator = said.makeAsyncIterator()
      return await iterator.next()
    }
  }

  static func holding(_ values: [String: String]) -> PushAddressAnswer {
    .held(
      TenantHolding(
        contactKey: "user-1", address: TenantHolding.Address(status: "Active", values: values)))
  }

  @Test(
    "asked a window after the 2xx, not before; held as sent on the timeline, the fields and explain"
  )
  func heldAsSent() async throws {
    let rig = try await Rig { _, _ in Self.holding(["FirstName": "Ada"]) }
    defer { rig.stop() }
    await rig.relayed("PIXEL-A")
    let due = try #require(await rig.server.watchedDevice("PIXEL-A")?.readBackDue)
    #expect(due == Instant(1_900))
    await rig.advance(by: 899)
    #expect(rig.askedSoFar.isEmpty, "asked before the window passed")
    rig.clock.advance(by: 1)
    let said = await rig.next()
    #expect(rig.askedSoFar == ["user-1/PIXEL-A"])
    #expect(said?.contains("all 1 attribute as sent") == true, "\(said ?? "nothing")")
    let device = try #require(await rig.server.watchedDevice("PIXEL-A"))
    #expect(device.readBacks.count == 1 && device.readBacks[0].allHeld)
    #expect(device.readBackDue == nil)
    let stories = try #require(await rig.server.fields(of: "PIXEL-A"))
    let first = try #require(stories.fields.first { $0.name == "FirstName" })
    #expect(first.tenant?.verdict == .heldAsSent)
    let explained = try #require(await rig.server.explain("PIXEL-A"))
    #expect(explained.first?.hasPrefix("Tenant read-back for #") == true, "\(explained)")
    // Not processed locally yet (the clock was not run for it): the local model's wait is
    // not said of the fields the tenant holds as sent (tags are not read back: theirs stays).
    #expect(
      !explained.contains {
        $0.contains("processing at") && ($0.hasPrefix("FirstName") || $0.hasPrefix("contact key"))
      }, "\(explained)")
    #expect(explained.contains { $0.hasPrefix("tag ALL") && $0.contains("processing at") })
  }

  @Test(
    "not arrived: explain gives the tenant's word and never says every registration was accepted")
  func notArrived() async throws {
    let rig = try await Rig { _, _ in .held(TenantHolding(contactKey: "user-1", address: nil)) }
    defer { rig.stop() }
    await rig.relayed("PIXEL-B")
    rig.clock.advance(to: Instant(1_000 + 900 + 10))
    await rig.server.processDue()
    let said = await rig.next()
    #expect(said?.contains("NOT ARRIVED: contact user-1 holds no push address") == true)
    let explained = try #require(await rig.server.explain("PIXEL-B"))
    #expect(
      !explained.contains { $0.hasPrefix("Processing accepted every registration") }, "\(explained)"
    )
    #expect(explained.contains { $0.contains("NOT ARRIVED") })
    let stories = try #require(await rig.server.fields(of: "PIXEL-B"))
    let key = try #require(stories.fields.first { $0.kind == .contactKey })
    #expect(key.tenant?.verdict == .notArrived && key.tenant?.word == "NOT ARRIVED")
    #expect(
      FieldExplanation.sentences(key).first?.hasSuffix(
        #": NOT ARRIVED: no push address for this device under "user-1"."#
      ) == true, "\(FieldExplanation.sentences(key))")
  }

  @Test("held with another value: each field's story names the registration that sent it")
  func heldOther() async throws {
    let rig = try await Rig { _, _ in Self.holding(["FirstName": "Ada"]) }
    defer { rig.stop() }
    await rig.relayed("PIXEL-D", attributes: ["FirstName": "Ada"])
    rig.clock.advance(by: 61)
    await rig.relayed("PIXEL-D", attributes: ["FirstName": "Grace"])
    rig.clock.advance(by: 900)
    let said = await rig.next()
    #expect(
      said?.contains(#"FirstName held as "Ada" (sent by #1), not "Grace""#) == true, "\(said ?? "")"
    )
    let stories = try #require(await rig.server.fields(of: "PIXEL-D"))
    let first = try #require(stories.fields.first { $0.name == "FirstName" })
    #expect(first.tenant?.verdict == .heldOther && first.tenant?.heldFrom == 1)
    #expect(
      FieldExplanation.sentences(first).first?.hasSuffix(
        #"holds "Ada" (sent by #1), not "Grace"."#) == true, "\(FieldExplanation.sentences(first))")
  }

  @Test(
    "only the tenant's 2xx is looked up: not the relay's own answers, not a 5xx; no contact key is said, not asked"
  )
  func whatIsAsked() async throws {
    let rig = try await Rig { _, _ in Self.holding(["FirstName": "Ada"]) }
    defer { rig.stop() }
    await rig.relayed("PIXEL-LOCAL", status: 502, local: true)
    await rig.relayed("PIXEL-500", status: 500)
    await rig.relayed("PIXEL-ANON", key: nil)
    #expect(await rig.server.watchedDevice("PIXEL-LOCAL")?.readBackDue == nil)
    #expect(await rig.server.watchedDevice("PIXEL-500")?.readBackDue == nil)
    rig.clock.advance(by: 900)
    let said = await rig.next()
    #expect(said?.contains("not asked: the registration carried no contact key") == true)
    await rig.settled()
    #expect(rig.askedSoFar.isEmpty)
  }

  @Test("a 429 pauses the lookups for its Retry-After, then the device is asked again")
  func throttled() async throws {
    let rig = try await Rig { _, count in
      count == 1
        ? .throttled(retryAfter: 120, why: "throttled (429, errorcode 50100)")
        : Self.holding(["FirstName": "Ada"])
    }
    defer { rig.stop() }
    await rig.relayed("PIXEL-C")
    rig.clock.advance(by: 900)
    let paused = await rig.next()
    #expect(paused?.contains("tenant read-back paused") == true, "\(paused ?? "")")
    #expect(paused?.contains("asked again in 2 min") == true, "\(paused ?? "")")
    await rig.settled()
    #expect(await rig.server.watchedDevice("PIXEL-C")?.readBackDue == Instant(1_000 + 900 + 120))
    await rig.advance(by: 119)
    #expect(rig.askedSoFar.count == 1, "asked again inside the tenant's Retry-After")
    rig.clock.advance(by: 1)
    let held = await rig.next()
    #expect(held?.contains("as sent") == true)
    #expect(rig.askedSoFar.count == 2)
  }

  @Test(
    "a newer registration inside the window is waited for and compared, not the one it replaced")
  func newestCompared() async throws {
    let rig = try await Rig { _, _ in Self.holding(["Interests": "dogs"]) }
    defer { rig.stop() }
    await rig.relayed("PIXEL-N", attributes: ["Interests": "cats"])
    rig.clock.advance(by: 2)
    await rig.relayed("PIXEL-N", attributes: ["Interests": "dogs"])
    await rig.advance(by: 898)
    #expect(rig.askedSoFar.isEmpty, "asked about #1 while #2 was inside its window")
    #expect(await rig.server.watchedDevice("PIXEL-N")?.readBackDue == Instant(1_902))
    rig.clock.advance(by: 2)
    let said = await rig.next()
    #expect(
      said?.contains("for #2") == true && said?.contains("all 1 attribute as sent") == true,
      "\(said ?? "")")
  }

  @Test("a contact key changed inside the window: the tenant is asked under the newest key")
  func newestKey() async throws {
    let rig = try await Rig { _, _ in Self.holding(["FirstName": "Ada"]) }
    defer { rig.stop() }
    await rig.relayed("PIXEL-K", key: "anon-1")
    rig.clock.advance(by: 5)
    await rig.relayed("PIXEL-K", key: "user-2")
    rig.clock.advance(by: 905)
    _ = await rig.next()
    #expect(rig.askedSoFar == ["user-2/PIXEL-K"])
  }

  @Test("an app that keeps registering is looked up within three windows, and its newest after")
  func longestWait() async throws {
    let rig = try await Rig { _, _ in Self.holding(["FirstName": "Ada"]) }
    defer { rig.stop() }
    for index in 0..<5 {
      if index > 0 { await rig.advance(by: 600) }
      await rig.relayed("PIXEL-L")
    }
    // Registered at +0, +600 ... +2400: the first, due at +900, waits for the newest until
    // +2700 (three windows), then the newest a window old (#4, +1800) is asked about.
    #expect(rig.askedSoFar.isEmpty)
    rig.clock.advance(by: 300)
    let said = await rig.next()
    #expect(said?.contains("for #4") == true, "\(said ?? "")")
    await rig.settled()
    #expect(await rig.server.watchedDevice("PIXEL-L")?.readBackDue == Instant(1_000 + 2_400 + 900))
  }

  @Test("a 2xx while the tenant is asked keeps its own turn: still due after the answer")
  func arrivesMidLookup() async throws {
    let rig = try await Rig(
      answer: { _, _ in Self.holding(["FirstName": "Ada"]) },
      during: { server, count in
        guard count == 1 else { return }
        await server.recordRelayed(
          body: Array(
            sdkBody(device: "PIXEL-M", key: "user-1", attributes: ["FirstName": "Ada"]).utf8),
          facts: RequestFacts(userAgent: androidAgent), receivedAt: server.clock.now(),
          status: 201, retryAfter: nil, issuedToken: nil)
      })
    defer { rig.stop() }
    await rig.relayed("PIXEL-M")
    rig.clock.advance(by: 900)
    _ = await rig.next()
    let device = try #require(await rig.server.watchedDevice("PIXEL-M"))
    #expect(device.readBacks.count == 1)
    #expect(device.readBackDue == Instant(1_900 + 900), "the newer 2xx lost its lookup")
  }

  @Test("'asked' is when the request left, not when the tenant's answer came back (#51)")
  func askedWhenSent() async throws {
    let rig = try await Rig(
      answer: { _, _ in Self.holding(["FirstName": "Ada"]) },
      during: { server, _ in
        // The tenant takes 50 s to answer.
        (server.clock as? VirtualClock)?.advance(by: 50)
      })
    defer { rig.stop() }
    await rig.relayed("PIXEL-W")
    rig.clock.advance(by: 900)
    let said = await rig.next() ?? ""
    #expect(said.contains("asked 15 min after its 2xx"), "\(said)")
    let device = try #require(await rig.server.watchedDevice("PIXEL-W"))
    #expect(device.readBacks.first?.askedAt == 1_900, "asked as the request left, not at 1,950")
  }

  @Test("past the queue's limit a device is told it will not be looked up")
  func full() async throws {
    let rig = try await Rig { _, _ in Self.holding([:]) }
    defer { rig.stop() }
    for index in 0..<ReadBackQueue.pendingLimit {
      await rig.relayed("PIXEL-\(index)")
    }
    await rig.relayed("PIXEL-LAST")
    let said = await rig.next()
    #expect(said?.contains("not asked: 1,000 devices already wait") == true, "\(said ?? "")")
    #expect(await rig.server.watchedDevice("PIXEL-LAST")?.readBacks.count == 1)
  }

  @Test(
    "a registration without a key leaves the device in its contact (S3): asked under the key it had"
  )
  func keyKept() async throws {
    let rig = try await Rig { _, _ in Self.holding(["FirstName": "Ada"]) }
    defer { rig.stop() }
    await rig.relayed("PIXEL-S3", key: "user-7")
    rig.clock.advance(by: 70)
    await rig.relayed("PIXEL-S3", key: nil)
    rig.clock.advance(by: 900)
    let said = await rig.next()
    #expect(rig.askedSoFar == ["user-7/PIXEL-S3"], "\(said ?? "")")
  }

  @Test("no key ever: said at once, not waiting behind the minute's lookups, and no longer due")
  func noKeyNotCounted() async throws {
    let rig = try await Rig { _, _ in Self.holding(["FirstName": "Ada"]) }
    defer { rig.stop() }
    for index in 0..<ReadBackQueue.perMinute { await rig.relayed("PIXEL-Q\(index)") }
    rig.clock.advance(by: 1)
    await rig.relayed("PIXEL-ANON", key: nil)
    await rig.advance(by: 1)
    rig.clock.advance(by: 899)
    var said: [String] = []
    for _ in 0...ReadBackQueue.perMinute { said.append(await rig.next() ?? "") }
    #expect(said.contains { $0.contains("not asked") }, "\(said)")
    #expect(rig.askedSoFar.count == ReadBackQueue.perMinute)
    await rig.settled()
    #expect(await rig.server.watchedDevice("PIXEL-ANON")?.readBackDue == nil, "still shown due")
  }
}
