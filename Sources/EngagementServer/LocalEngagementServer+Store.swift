import EngagementCore
import RegistrationCore

/// The group commit: what requests changed, written to the store in one transaction for many.
extension LocalEngagementServer {
  func commit(_ changes: EngagementServerCore.Changes, at now: Instant) {
    let mark = unwrittenMark
    unwritten.registrations += changes.registrations
    unwritten.receivedBodies += changes.receivedBodies
    unwritten.devices += changes.devices
    unwritten.contacts += changes.contacts
    unwritten.events += changes.events
    committed(since: mark, at: now)
  }

  /// How far `unwritten` reached before a request: what the request added lies past it.
  struct UnwrittenMark {
    var events: Int
    var stored: Int
  }

  var unwrittenMark: UnwrittenMark {
    UnwrittenMark(
      events: unwritten.events.count,
      stored: unwritten.registrations.count + unwritten.devices.count + unwritten.contacts.count)
  }

  /// Says the events a request added to `unwritten` (and drops them: the store keeps none),
  /// and has what it changed written: at once past `commitBatch` requests, else at the end of
  /// the commit window.
  func committed(since mark: UnwrittenMark, at now: Instant) {
    if unwritten.events.count > mark.events {
      for event in unwritten.events[mark.events...] { changes.send(.event(event, at: now)) }
      unwritten.events.removeSubrange(mark.events...)
    }
    guard unwrittenMark.stored > mark.stored else { return }
    unwrittenRequests += 1
    if unwrittenRequests == Self.commitBatch {
      // Written by the store's writer, not here: a transaction of 256 rows would hold the
      // actor, and every request waiting on it.
      startWrite()
    } else if !flushScheduled {
      flushScheduled = true
      Task {
        try? await Task.sleep(for: commitWindow)
        self.startWrite()
      }
    }
  }

  /// Changes written at once, before their window ends.
  static let commitBatch = 256

  /// Hands every buffered change to the writer, as one transaction, and returns at once.
  func startWrite() {
    flushScheduled = false
    guard unwrittenRequests > 0 else { return }
    // The store is behind: wait for it here (holding the actor, and so the requests), rather
    // than let batches pile up in memory.
    if writer.backlogged { writer.drainedNow() }
    var batch = EngagementServerCore.Changes()
    swap(&batch, &unwritten)
    writer.write(batch, windowStart: core.windowStart)
    unwrittenRequests = 0
  }

  /// Writes every buffered change and returns once the store holds it.
  public func flush() async {
    startWrite()
    await writer.drained()
  }
}
