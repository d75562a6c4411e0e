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

extension DeviceWatch.Device {
  /// A registration joins the timeline (its newest `timelineLimit`, bodies for the newest
  /// `bodiesKept`), and its findings are counted over every registration.
  mutating func append(_ entry: WatchedRegistration) {
    registrations.append(entry)
    if registrations.count > DeviceWatch.timelineLimit {
      registrations.removeFirst(registrations.count - DeviceWatch.timelineLimit)
    }
    let stripped = registrations.count - DeviceWatch.bodiesKept - 1
    if stripped >= 0 { registrations[stripped].body = "" }
    registrationCount += 1
    for finding in entry.findings {
      findingCounts[finding.code, default: 0] += 1
      severityCounts[finding.severity, default: 0] += 1
      codeSeverities[finding.code, default: []].insert(finding.severity)
    }
  }

  /// A request the server took after refusals for a wrong token or app id: those were the
  /// setup's (RegScope's or the app's configuration), fixed now, not the app's doing. They
  /// stay in the timeline as notes, saying so, and leave nothing counted against the app: no
  /// warning in its summary, in `/api/devices` or for a CI gate (`FindingGate`).
  mutating func forgiveSetupRefusals() {
    guard setupRefusalsCounted > 0 else { return }
    let forgiven = setupRefusalsCounted
    setupRefusalsCounted = 0
    func lower(_ count: inout Int?) {
      count = count.map { $0 - forgiven }.flatMap { $0 > 0 ? $0 : nil }
    }
    lower(&findingCounts[.refused])
    lower(&severityCounts[.warning])
    // Only a refusal for the token or the app is a refused warning.
    codeSeverities[.refused]?.remove(.warning)
    if codeSeverities[.refused]?.isEmpty == true { codeSeverities[.refused] = nil }
    for index in registrations.indices where registrations[index].refused {
      for place in registrations[index].findings.indices {
        let finding = registrations[index].findings[place]
        guard finding.code == .refused, finding.severity == .warning else { continue }
        registrations[index].findings[place].severity = .note
        registrations[index].findings[place].message += " (the setup's; accepted since)"
        registrations[index].findings[place].fix = nil
      }
    }
  }
}

/// A refusal held by reference (`DeviceWatch.Device.lastRefusal`); never changed, so a
/// device copied keeps value semantics.
final class RefusalBox: Sendable {
  let value: Refusal
  init(_ value: Refusal) { self.value = value }
}
