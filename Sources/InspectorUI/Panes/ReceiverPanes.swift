import Foundation
import RegistrationCore
import Session

/// `regscope --receive`: the devices real apps registered, and for the one selected its
/// timeline, its last body with what changed, its findings with the rule each breaks, and
/// when the rules expect it next.
enum ReceiverPanes {
  static func draw(_ model: InspectorModel, _ canvas: inout Canvas) {
    let top = 1
    let body = model.height - 2
    let left = max(30, model.width * 36 / 100)
    let right = model.width - left
    let devicesRect = Rect(x: 0, y: top, width: left, height: body)
    let timelineHeight = body * 40 / 100
    let findingsHeight = body * 30 / 100
    let timelineRect = Rect(x: left, y: top, width: right, height: timelineHeight)
    let findingsRect = Rect(x: left, y: top + timelineHeight, width: right, height: findingsHeight)
    let bodyRect = Rect(
      x: left, y: top + timelineHeight + findingsHeight, width: right,
      height: body - timelineHeight - findingsHeight)
    let selected = model.selectedDevice
    let count = model.watched?.count ?? 0
    canvas.box(devicesRect, title: "Devices (\(count))", focused: true)
    lines(devices(model, selected), in: devicesRect, &canvas)
    let name = selected.map { " · " + TerminalText.escaped($0.deviceID) } ?? ""
    canvas.box(timelineRect, title: "Timeline\(name)", focused: false)
    lines(timeline(model, selected), in: timelineRect, &canvas, newestLast: true)
    canvas.box(findingsRect, title: "Findings", focused: false)
    lines(findings(selected), in: findingsRect, &canvas)
    canvas.box(bodyRect, title: "Last body (+ changed)", focused: false)
    lines(lastBody(model), in: bodyRect, &canvas)
  }

  static func lines(
    _ lines: [[(String, StyleRole)]], in rect: Rect, _ canvas: inout Canvas,
    newestLast: Bool = false
  ) {
    let inner = rect.inner
    let shown = newestLast ? Array(lines.suffix(inner.height)) : Array(lines.prefix(inner.height))
    for (row, segments) in shown.enumerated() { canvas.line(inner, row, segments) }
  }

  static func devices(_ model: InspectorModel, _ selected: DeviceWatch.Device?)
    -> [[(String, StyleRole)]]
  {
    guard let watched = model.watched, !watched.isEmpty else {
      var lines: [[(String, StyleRole)]] = [[("no app has registered yet", .dim)]]
      guard let url = model.receivingAt else { return lines }
      let port = url.split(separator: ":").last.map(String.init) ?? ""
      lines.append([("point your app's server URL at", .dim)])
      lines.append([("  " + TerminalText.escaped(url), .accent)])
      lines.append([("or, from the Android emulator,", .dim)])
      lines.append([("  http://10.0.2.2:\(TerminalText.escaped(port))", .accent)])
      lines.append([("  (README: Watch your own app)", .dim)])
      return lines
    }
    var lines: [[(String, StyleRole)]] = []
    for device in watched {
      let mark = device.deviceID == selected?.deviceID ? "> " : "  "
      let identity = device.identity
      let sdk = "\(identity.platform ?? "?") \(identity.sdk) \(identity.sdkVersion ?? "")"
      let findings = device.findingsTotal
      lines.append([
        (mark, .accent),
        (TextWidth.column(TerminalText.escaped(String(device.deviceID.prefix(18))), 19), .normal),
        (
          findings == 0 ? "ok" : "\(findings) finding\(findings == 1 ? "" : "s")",
          findings == 0 ? .success : .warning
        ),
      ])
      lines.append([
        ("    " + TerminalText.escaped(sdk), .dim),
        ("  app \(TerminalText.escaped(identity.appVersion ?? "?"))", .dim),
      ])
      let contact =
        device.lastSent?.subscriberKey.map { TerminalText.escaped($0) } ?? "(no contact)"
      lines.append([
        ("    " + contact, .normal),
        ("  seen \(model.format(device.lastSeen))", .dim),
      ])
    }
    return lines
  }

  static func timeline(_ model: InspectorModel, _ device: DeviceWatch.Device?)
    -> [[(String, StyleRole)]]
  {
    guard let device else { return [[("(no device)", .dim)]] }
    var lines: [[(String, StyleRole)]] = device.registrations.map { entry in
      let status = entry.status.map(String.init) ?? "---"
      let ok = entry.status.map { $0 / 100 == 2 } ?? false
      let interval = entry.interval.map { "+" + DurationText.describe($0) } ?? "first"
      return [
        (model.format(entry.at) + " ", .dim),
        (TextWidth.column(interval, 12), .normal),
        (TextWidth.column(status, 4), ok ? .success : .error),
        (entry.findings.map(\.code).joined(separator: " "), .warning),
      ]
    }
    if let next = expectedNext(device) {
      let left = next.at - model.now
      lines.append([
        (
          left > 0
            ? "next allowed in \(DurationText.describe(left.rounded(.up)))" : "may register now",
          .countdown
        ),
        (" (\(next.why))", .dim),
      ])
    }
    let token =
      device.tokenReturned.map { $0 ? "sent back" : "NOT sent back" } ?? "not yet due back"
    lines.append([("subscriber token \(token)", device.tokenReturned == false ? .warning : .dim)])
    return lines
  }

  /// When the rules let the device register next: a minute after a success (R3.2), the
  /// ladder after failures (R4.1), or the server's Retry-After (R4.2), whichever is later.
  static func expectedNext(_ device: DeviceWatch.Device) -> (at: Instant, why: String)? {
    guard let last = device.registrations.last else { return nil }
    let failed = last.status.map { $0 / 100 != 2 } ?? true
    if !failed { return (last.at + 60, "R3.2: one a minute") }
    let failures = device.registrations.reversed()
      .prefix { $0.status.map { $0 / 100 != 2 } ?? true }.count
    var wait = RegistrationJudge.ladder(afterFailures: failures)
    var why = "R4.1: retry \(failures) of the ladder"
    if let retryAfter = last.retryAfter, retryAfter > wait {
      wait = min(retryAfter, 86_400)
      why = "R4.2: the server's Retry-After"
    }
    return (last.at + wait, why)
  }

  static func findings(_ device: DeviceWatch.Device?) -> [[(String, StyleRole)]] {
    guard let device else { return [] }
    let all = device.registrations.reversed().flatMap { entry in entry.findings }
    guard !all.isEmpty else { return [[("none: this app keeps to the rules so far", .success)]] }
    return all.map { finding in
      [
        (TextWidth.column(finding.code, 18), .warning), (finding.rule + " ", .accent),
        (TerminalText.escaped(finding.message), .normal),
      ]
    }
  }

  static func lastBody(_ model: InspectorModel) -> [[(String, StyleRole)]] {
    guard let device = model.selectedDevice,
      let entry = device.registrations.last(where: { !$0.body.isEmpty })
    else { return [] }
    var lines: [[(String, StyleRole)]] = entry.changes.map { [("+ " + $0, .changed)] }
    lines += (model.receiverBody?.lines ?? []).map { [("  " + TerminalText.escaped($0), .normal)] }
    return lines
  }

  /// Makes the selected device's last body readable once, when it is new to the model.
  static func refreshBody(_ model: inout InspectorModel) {
    guard let device = model.selectedDevice,
      let entry = device.registrations.last(where: { !$0.body.isEmpty })
    else {
      model.receiverBody = nil
      return
    }
    if model.receiverBody?.deviceID == device.deviceID, model.receiverBody?.at == entry.at {
      return
    }
    model.receiverBody = (device.deviceID, entry.at, ReadableJSON.lines(Array(entry.body.utf8)))
  }
}
