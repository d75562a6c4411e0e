import EngagementCore
import RegistrationCore

/// The group commit: what requests changed, written to the store in one transaction for many.
extension LocalEngagementServer {
  func commit(_ changes: EngagementServerCore.Changes, at now: Instant) {
    for event in changes.events { eventSink?(event, now) }
    guard !changes.registrations.isEmpty || !changes.devices.isEmpty || !changes.contacts.isEmpty
    else { return }
    unwritten.append(changes)
    if unwritten.count == Self.commitBatch {
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
    guard !unwritten.isEmpty else { return }
    // The store is behind: wait for it here (holding the actor, and so the requests), rather
    // than let batches pile up in memory.
    if writer.backlogged { writer.drainedNow() }
    writer.write(unwritten, windowStart: core.windowStart)
    unwritten.removeAll(keepingCapacity: true)
  }

  /// Writes every buffered change and returns once the store holds it.
  public func flush() async {
    startWrite()
    await writer.drained()
  }
}
