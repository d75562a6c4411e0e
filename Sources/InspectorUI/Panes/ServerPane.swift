import EngagementCore
import Foundation
import RegistrationCore
import SessionValues

/// 6 Server: the local server's billing view.
extension Panes {
  static func server(_ model: InspectorModel) -> [Line] {
    guard let server = model.server else {
      return [[("a remote server: nothing local to show", .dim)]]
    }
    let stats = server.stats
    var lines: [Line] = [
      [
        ("distinct contacts ", .normal), ("\(stats.distinctContacts)", .accent),
        ("  (billing)", .dim),
      ],
      [
        ("orphaned ", .normal),
        ("\(stats.orphanedContacts)", stats.orphanedContacts > 0 ? .warning : .normal),
        ("  made up ", .normal), ("\(stats.madeUpContacts)", .normal),
      ],
      [
        ("devices ", .normal), ("\(stats.devices)", .normal), ("  active ", .normal),
        ("\(stats.activeDevices)", .normal),
      ],
    ]
    if let fault = server.fault {
      lines.append([("fault: " + fault.summary, .error)])
    }
    lines.append([("contacts", .accent)])
    if server.contacts.isEmpty { lines.append([("  (none yet)", .dim)]) }
    for contact in server.contacts.suffix(50) {
      var segments: Line = [
        ("  " + text(contact.key), contact.orphanedAt == nil ? .normal : .warning)
      ]
      if contact.madeUp { segments.append(("  made up", .dim)) }
      if contact.orphanedAt != nil { segments.append(("  ORPHANED", .warning)) }
      let devices = server.devicesByContact[contact.key]?.count ?? 0
      if devices > 0 { segments.append(("  \(devices) device\(devices == 1 ? "" : "s")", .dim)) }
      lines.append(segments)
    }
    lines.append([("devices", .accent)])
    if server.devices.isEmpty { lines.append([("  (none yet)", .dim)]) }
    for device in server.devices.suffix(20) {
      var segments: Line = [
        ("  " + text(String(device.deviceID.prefix(8))) + "  ", .normal),
        (device.contactKey.map { text($0) } ?? "(no contact)", .dim),
      ]
      if !device.active {
        segments.append(("  INACTIVE: " + text(device.inactiveReason ?? ""), .error))
      }
      lines.append(segments)
    }
    lines.append([("processing (\(stats.pending) waiting)", .accent)])
    for registration in server.waiting {
      let left = max(0, registration.processAt - model.now)
      lines.append([
        ("  #\(registration.id) in ", .normal),
        (DurationText.describe(left.rounded(.up)), .countdown),
      ])
    }
    let rejected = server.registrations.filter { $0.status == .rejected }
    if !rejected.isEmpty {
      lines.append([("rejected in processing", .accent)])
      for registration in rejected.suffix(5) {
        lines.append([
          ("  #\(registration.id) ", .normal), (text(registration.reason ?? ""), .error),
        ])
      }
    }
    if let problem = server.storeProblem { lines.append([("store: " + text(problem), .error)]) }
    return lines
  }
}
