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
    let publisher = SnapshotPublisher(minimumInterval: .milliseconds(100))
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
    for await seen in delivered where seen == 10_000 { break }
    #expect(built.withLock { $0 } <= 3, "one snapshot for the burst, not one a change")
    publisher.stop()
  }

  @Test("a change right after a snapshot waits out the interval: about ten a second at most")
  func spaced() async throws {
    let publisher = SnapshotPublisher(minimumInterval: .milliseconds(100))
    let state = Mutex(0)
    publisher.start {
      SessionSnapshot.device(
        .init(device: nil, server: nil, now: Instant(Double(state.withLock { $0 })), rate: 1))
    }
    let (delivered, deliver) = AsyncStream.makeStream(of: ContinuousClock.Instant.self)
    publisher.watch { _ in deliver.yield(.now) }
    var arrivals = delivered.makeAsyncIterator()
    var times: [ContinuousClock.Instant] = []
    for change in 1...3 {
      state.withLock { $0 = change }
      publisher.changed()
      if let time = await arrivals.next() { times.append(time) }
    }
    #expect(times.count == 3)
    for (earlier, later) in zip(times, times.dropFirst()) {
      #expect(later - earlier >= .milliseconds(100), "\(later - earlier)")
    }
    publisher.stop()
  }
}
