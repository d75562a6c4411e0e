import Clocks
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import Session
import SessionValues
import Testing

@Suite("the session pushes its state")
struct SessionPushTests {
  /// The snapshots a session pushes, as a stream a test can await.
  static func watched(_ session: Session) -> AsyncStream<SessionSnapshot> {
    let (stream, continuation) = AsyncStream.makeStream(of: SessionSnapshot.self)
    session.watch { continuation.yield($0) }
    return stream
  }

  @Test("a watcher gets a snapshot after a command, with the device it changed")
  func pushedAfterCommand() async throws {
    let session = try await DeviceSession.start(SessionSetup())
    var snapshots = Self.watched(session).makeAsyncIterator()
    // The first push answers the watch itself: nothing launched yet.
    let first = await snapshots.next()
    #expect(first?.device == nil)
    _ = try await session.execute(.launch)
    _ = try await session.execute(.edit(.addTag("sports")))
    var seen: SessionSnapshot?
    while let next = await snapshots.next() {
      seen = next
      if next.device?.state.record.tags.contains("sports") == true { break }
    }
    #expect(seen?.device?.state.record.tags.contains("sports") == true)
    #expect(seen?.server != nil)
    await session.stop()
  }

  @Test("the clock's controls push too, and a virtual clock refuses a rate")
  func clockControls() async throws {
    let virtual = try await DeviceSession.start(SessionSetup())
    #expect(virtual.setRate(10) == false)
    await virtual.stop()

    let clock = ScaledClock(rate: 1, start: Instant(1000))
    let place = SessionPlace(
      clock: .scaled(clock, live: true), deviceStore: try RegistrationStore.inMemory(),
      serverStore: try ServerStore.inMemory())
    let live = try await DeviceSession.start(SessionSetup(), place: place)
    var snapshots = Self.watched(live).makeAsyncIterator()
    _ = await snapshots.next()
    #expect(live.setRate(0))
    var paused: SessionSnapshot?
    while let next = await snapshots.next() {
      paused = next
      if next.rate == 0 { break }
    }
    #expect(paused?.rate == 0)
    #expect(live.rate == 0)
    await live.stop()
  }

  @Test("a session given no network refuses loopback HTTP and a receiver with a clear error")
  func noNetwork() async throws {
    await #expect(throws: SessionError.self) {
      _ = try await DeviceSession.start(SessionSetup(), place: try .virtual(route: .loopback))
    }
    let receiver = ReceiverSetup(
      settings: ServerSettings(appID: "app", accessToken: "token"),
      store: try ServerStore.inMemory(), options: ReceiverOptions(port: 0))
    await #expect(throws: SessionError.self) {
      _ = try await SessionFactory().open(.receiver(receiver))
    }
  }

  @Test("a command's result is worded once: done, refused, or the error it threw")
  func results() async throws {
    let session = try await DeviceSession.start(SessionSetup())
    let early = await session.run(.edit(.addTag("x")))
    #expect(early.isError)
    #expect(early.text.contains("has not launched yet"))
    _ = await session.run(.launch)
    let refused = await session.run(.edit(.setContactKey("  ")))
    #expect(refused.isError)
    #expect(refused.text.hasPrefix("refused") && refused.text.contains("R2.1"))
    let applied = await session.run(.edit(.addTag("sports")))
    #expect(!applied.isError && applied.text.hasPrefix("applied"))
    await session.stop()
  }
}

@Suite("events carry what was sent")
struct WireBodyTests {
  @Test("a shipped SDK's sent event carries the stamped bytes; the JSON line prints them")
  func stampedBytes() async throws {
    var setup = SessionSetup()
    setup.use(.ios)
    let session = try await DeviceSession.start(setup)
    _ = try await session.execute(.launch)
    try await session.advance(to: Instant(120))
    let sent = try #require(session.log.last(.sent))
    let bytes = try #require(sent.wireBody)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("\"registrationDateUtc\"") && text.contains("\"uuid\""))
    #expect(sent.jsonLine.contains(text))
    // The documented profile stamps nothing: the bytes are the canonical body.
    let plain = try await DeviceSession.start(SessionSetup())
    _ = try await plain.execute(.launch)
    try await plain.advance(to: Instant(1))
    let plainSent = try #require(plain.log.last(.sent))
    guard case .engine(.sent(_, _, _, let payload)) = plainSent.body else {
      Issue.record("not a sent event")
      return
    }
    #expect(plainSent.wireBody == payload.encodedBytes())
    await session.stop()
    await plain.stop()
  }
}
