import EngagementCore
import RegistrationCore

/// The receiver's Timeline pane: the chosen device's registrations, each with what it
/// changed, then the tenant's answers, when it may register next and how it is judged.
extension ReceiverPanes {
  static func timeline(_ model: InspectorModel, _ device: DeviceWatch.Device?, width: Int = 1_000)
    -> [Line]
  {
    guard let device else { return [[("(no device)", .dim)]] }
    // Registrations and Mobile App Messaging calls (not judged), in the order they came.
    var timeline = device.registrations.map { ($0.at, registrationRows(model, $0, width: width)) }
    for event in device.mobileAppMessaging {
      let index = timeline.firstIndex { $0.0 > event.at } ?? timeline.count
      let time = model.format(event.at) + " "
      let row: Line = [
        (time, .dim), (TextWidth.column(event.title, 36), .normal),
        (TerminalText.escaped(event.summary), .dim),
      ]
      timeline.insert(
        (event.at, Panes.wrapped([row], width: width, indent: TextWidth.of(time))), at: index)
    }
    var lines = timeline.flatMap(\.1)
    // What follows the rows is read whole, wrapped, never cut.
    var tail = readBackLines(model, device)
    if let next = device.nextSend {
      let left = next.at - model.now
      tail.append([
        (
          left > 0
            ? "next allowed in \(DurationText.describe(left.rounded(.up)))" : "may register now",
          .countdown
        ),
        (" (\(next.rule): \(next.why))", .dim),
      ])
    }
    let token =
      device.tokenReturned.map { $0 ? "sent back" : "NOT sent back" } ?? "not yet due back"
    tail.append([("subscriber token \(token)", device.tokenReturned == false ? .warning : .dim)])
    tail.append([(TerminalText.escaped(device.identity.judgedBy), .dim)])
    lines += Panes.wrapped(tail, width: width)
    return lines
  }

  /// One registration: when, the interval, the answer and its Retry-After, its findings' codes,
  /// then what it changed, in the words `regctl judge` and a QA report use
  /// (`CaptureText.changed`); wrapped under the interval rather than cut.
  static func registrationRows(_ model: InspectorModel, _ entry: WatchedRegistration, width: Int)
    -> [Line]
  {
    let status = entry.status.map(String.init) ?? "---"
    let ok = entry.status.map(RetryPolicy.isSuccess) ?? false
    let time = model.format(entry.at) + " "
    var row: Line = [
      (time, .dim),
      (TextWidth.column(CaptureText.interval(entry), 12), .normal),
      (TextWidth.column(status, 4), ok ? .success : .error),
    ]
    if let retryAfter = CaptureText.retryAfter(entry) {
      row.append(
        (TerminalText.escaped(retryAfter) + " ", entry.retryAfterIgnored ? .warning : .dim))
    }
    if !entry.findings.isEmpty {
      row.append(
        (
          entry.findings.map(\.code.rawValue).joined(separator: " ") + "  ",
          entry.findings.map(\.severity).contains(.violation)
            ? .error : entry.findings.contains { $0.severity == .warning } ? .warning : .dim
        ))
    }
    var lines = Panes.wrapped([row], width: width, indent: TextWidth.of(time))
    // What it changed, in the one sentence (`CaptureText.changed`), each change kept whole
    // on a line when it fits one.
    guard let changed = CaptureText.changed(entry) else { return lines }
    let indent = String(repeating: " ", count: TextWidth.of(time))
    let changes = changed.components(separatedBy: "; ")
    for (index, change) in changes.enumerated() {
      // Escaped when the watch made them (values from the app).
      let piece = TerminalText.escaped(change) + (index < changes.count - 1 ? ";" : "")
      let last = lines.last ?? []
      let used = last.reduce(0) { $0 + TextWidth.of($1.0) }
      let space = last.last?.0.hasSuffix(" ") == true ? "" : " "
      if used + space.count + TextWidth.of(piece) <= width {
        lines[lines.count - 1].append((space + piece, .changed))
      } else {
        lines += Panes.wrapped([[(indent + piece, .changed)]], width: width, indent: indent.count)
      }
    }
    return lines
  }
}
