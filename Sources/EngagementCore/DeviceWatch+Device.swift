import RegistrationCore

extension DeviceWatch.Device {
  /// The newest registration's violations and warnings that may be said now, counted
  /// against `DeviceWatch.findingsAnnouncedPerMinute`.
  mutating func announceFindings(at now: Instant) -> [Finding] {
    guard
      let findings = registrations.last?.findings.filter({
        $0.severity != .note && $0.code != .refused
      }), !findings.isEmpty
    else { return [] }
    findingsAnnouncedAt.removeAll { now - $0 >= 60 }
    let room = max(0, DeviceWatch.findingsAnnouncedPerMinute - findingsAnnouncedAt.count)
    let said = Array(findings.prefix(room))
    findingsAnnouncedAt += said.map { _ in now }
    return said
  }
}

/// A refusal held by reference (`DeviceWatch.Device.lastRefusal`); never changed, so a
/// device copied keeps value semantics.
final class RefusalBox: Sendable {
  let value: Refusal
  init(_ value: Refusal) { self.value = value }
}
