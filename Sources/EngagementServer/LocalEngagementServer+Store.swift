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
      // Written by a task of its own, not here: the request may be running on an event loop
      // (the fast path), which a transaction of 256 rows would hold up.
      Task { await self.flush() }
    } else if !flushScheduled {
      flushScheduled = true
      Task {
        try? await Task.sleep(for: commitWindow)
        await self.flush()
      }
    }
  }

  /// Changes written at once, before their window ends.
  static let commitBatch = 256

  /// Writes every buffered change in one transaction.
  public func flush() {
    flushScheduled = false
    guard !unwritten.isEmpty else { return }
    var merged = EngagementServerCore.Changes()
    for changes in unwritten {
      merged.registrations += changes.registrations
      merged.receivedBodies.merge(changes.receivedBodies) { new, _ in new }
      merged.devices += changes.devices
      merged.contacts += changes.contacts
    }
    unwritten.removeAll(keepingCapacity: true)
    do {
      try store.apply(merged, windowStart: core.windowStart)
      storeProblem = nil
    } catch {
      // The core keeps serving from memory; the problem is shown, not hidden.
      storeProblem = "\(error)"
    }
    stored.fire()
  }
}
