import Foundation
import RegistrationCore
import SessionValues
import Synchronization
import Testing

@testable import Session

/// A flood of changes gives a few snapshots, never one per change, and the last state is
/// always handed over.
@Suite("snapshots under a flood of changes")
struct SnapshotPublisherTests {
  @Test("10,000 changes at once: a handful of snapshots, the newest state last")
  func coalesced() async throws {
    // No real clock: the interval lasts until the test has fired the whole burst.
    let (ends, endInterval) = AsyncStream.makeStream(of: Void.self)
    let publisher = SnapshotPublisher(minimumInterval: .milliseconds(100)) { _ in
      for await _ in ends { break }
    }
    let state = Mutex(0)
    let built = Mutex(0)
    publisher.start {
      built.withLock { $0 += 1 }
      return SessionSnapshot.device(
        .init(device: nil, server: nil, now: Instant(Double(state.withLock { $0 })), rate: 1))
    }
    let (delivered, deliver) = AsyncStream.makeStream(of: Double.self)
    publisher.watch { deliver.yield($0.now.seconds) }
    for change in 1...10_000 {
      state.withLock { $0 = change }
      publisher.changed()
    }
    endInterval.finish()
    for await seen in delivered where seen == 10_000 { break }
    #expect(built.withLock { $0 } <= 3, "one snapshot for the burst, not one a change")
    publisher.stop()
  }

  @Test("a change right after a snapshot waits out the interval: about ten a second at most")
  func spaced() async throws {
    // The interval is waited out on the test's own terms, step by step: no clock.
    let log = Mutex<[String]>([])
    let (pauses, pauseStarted) = AsyncStream.makeStream(of: Void.self)
    let (releases, release) = AsyncStream.makeStream(of: Void.self)
    let publisher = SnapshotPublisher(minimumInterval: .milliseconds(100)) { interval in
      log.withLock { $0.append("pause \(interval)") }
      pauseStarted.yield()
      for await _ in releases { break }
      log.withLock { $0.append("pause over") }
    }
    publisher.start {
      SessionSnapshot.device(.init(device: nil, server: nil, now: .zero, rate: 1))
    }
    let (delivered, deliver) = AsyncStream.makeStream(of: Void.self)
    publisher.watch { _ in
      log.withLock { $0.append("snapshot") }
      deliver.yield()
    }
    var arrivals = delivered.makeAsyncIterator()
    var paused = pauses.makeAsyncIterator()
    publisher.changed()
    _ = await arrivals.next()
    _ = await paused.next()
    // A change during the interval waits for it to end.
    publisher.changed()
    release.yield()
    _ = await arrivals.next()
    _ = await paused.next()
    #expect(
      log.withLock { $0 }
        == ["snapshot", "pause 0.1 seconds", "pause over", "snapshot", "pause 0.1 seconds"])
    release.yield()
    publisher.stop()
  }
}
