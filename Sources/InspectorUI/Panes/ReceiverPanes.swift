import EngagementCore
import Foundation
import RegistrationCore
import SessionValues

/// `regscope --receive`: the devices real apps registered, and for the one selected its
/// timeline, its last body with what changed, its findings with the rule each breaks, and
/// when the rules expect it next.
enum ReceiverPanes {
  static func draw(_ model: InspectorModel, _ canvas: inout Canvas) {
    let rects = model.receiverRects
    let selected = model.selectedDevice
    let focus = model.receiver.focus
    for pane in ReceiverScreen.Pane.allCases {
      guard let rect = rects[pane] else { continue }
      canvas.box(rect, title: title(pane, model, selected), focused: focus == pane)
      guard pane != .devices else {
        drawDevices(model, selected, in: rect, &canvas)
        continue
      }
      let lines = laidOut(pane, model)?.lines ?? []
      scrolled(
        lines, in: rect, &canvas, start: start(pane, model, count: lines.count, rect: rect),
        unit: "lines")
    }
  }

  /// A pane where the layout puts it, with its lines at that width: what the view draws and
  /// what the keys scroll over, so both see one length and one page.
  static func laidOut(_ pane: ReceiverScreen.Pane, _ model: InspectorModel) -> LaidOutPane? {
    guard let rect = model.receiverRects[pane]
    else { return nil }
    return LaidOutPane(rect: rect, lines: lines(pane, model, width: rect.inner.width))
  }

  /// The first line a pane shows: where its view is, or, for the QA checklist not yet
  /// scrolled, the step under way.
  static func start(_ pane: ReceiverScreen.Pane, _ model: InspectorModel, count: Int, rect: Rect)
    -> Int
  {
    if pane == .body, let qa = model.receiver.qa, model.receiver.qaShown {
      let view = model.receiver.qaView
      guard view.first != nil else {
        return QAPane.lines(model, qa, width: rect.inner.width).focusRow - 1
      }
      return view.firstLine(count: count, height: rect.inner.height)
    }
    return model.receiver.view(pane).firstLine(count: count, height: rect.inner.height)
  }

  static func title(
    _ pane: ReceiverScreen.Pane, _ model: InspectorModel, _ selected: DeviceWatch.Device?
  ) -> String {
    let number = "\(pane.rawValue) "
    switch pane {
    case .devices: return number + "Devices (\(model.watched?.count ?? 0))"
    case .timeline:
      return number + "Timeline"
        + (selected.map { " · " + TerminalText.escaped($0.deviceID) } ?? "")
    case .findings: return number + "Findings"
    case .body:
      if model.receiver.fieldsShown {
        // The box shows its title in its width less six columns.
        let room = (model.receiverRects[.body]?.width ?? .max / 2) - 6 - number.count
        return number + FieldsPane.title(model, width: room)
      }
      if let qa = model.receiver.qa, model.receiver.qaShown { return number + QAPane.title(qa) }
      return number + "Last body (+ changed)"
    }
  }

  /// A pane's lines at this width.
  static func lines(_ pane: ReceiverScreen.Pane, _ model: InspectorModel, width: Int)
    -> [Line]
  {
    let selected = model.selectedDevice
    switch pane {
    case .devices: return []
    case .timeline: return timeline(model, selected, width: width)
    case .findings: return findings(selected, model.glyphs, width: width)
    case .body:
      if model.receiver.fieldsShown { return FieldsPane.lines(model, width: width).lines }
      // A QA run takes the body's place: the checklist beside the timeline.
      if let qa = model.receiver.qa, model.receiver.qaShown {
        return QAPane.lines(model, qa, width: width).lines
      }
      return lastBody(model)
    }
  }

  /// Draws the lines from `start` (clamped so the pane stays full) and, when they do not all
  /// fit, where the view is on the bottom border: " 15-28 of 200 lines ".
  static func scrolled(
    _ lines: [Line], in rect: Rect, _ canvas: inout Canvas, start: Int,
    unit: String, counted: (first: Int, last: Int, total: Int)? = nil
  ) {
    let inner = rect.inner
    guard inner.height > 0 else { return }
    let first = max(0, min(start, lines.count - inner.height))
    for (row, segments) in lines.dropFirst(first).prefix(inner.height).enumerated() {
      canvas.line(inner, row, segments)
    }
    guard lines.count > inner.height else { return }
    let (a, b, total) =
      counted ?? (first + 1, min(lines.count, first + inner.height), lines.count)
    let hint = " \(a)-\(b) of \(total) \(unit) "
    canvas.buffer.put(
      hint, x: rect.x + max(1, rect.width - TextWidth.of(hint) - 2),
      y: rect.y + rect.height - 1, role: .dim)
  }

  /// The device list, scrolled so that the selected device's rows are always on screen.
  static func drawDevices(
    _ model: InspectorModel, _ selected: DeviceWatch.Device?, in rect: Rect,
    _ canvas: inout Canvas
  ) {
    let width = rect.inner.width
    let notice: [Line] = Panes.wrapped(
      model.receiverNotice.map { [[(TerminalText.escaped($0), .accent)]] } ?? [], width: width)
    guard let watched = model.watched, !watched.isEmpty else {
      scrolled(
        notice + Panes.wrapped(emptyHelp(model), width: width, indent: 2), in: rect, &canvas,
        start: 0, unit: "lines")
      return
    }
    let blocks = watched.map {
      deviceBlock(model, $0, selected: $0.deviceID == selected?.deviceID, width: width)
    }
    let index = watched.firstIndex { $0.deviceID == selected?.deviceID } ?? 0
    let lines = notice + blocks.flatMap { $0 }
    let blockStart = notice.count + blocks.prefix(index).reduce(0) { $0 + $1.count }
    let blockEnd = blockStart + blocks[index].count
    let height = rect.inner.height
    // Keep the whole selected block in view: scrolled only as far as it needs.
    let start = blockEnd > height ? min(blockStart, blockEnd - height) : 0
    let first = max(0, min(start, lines.count - height))
    // The hint counts devices, not rows.
    var shown: [Int] = []
    var row = notice.count
    for (device, block) in blocks.enumerated() {
      if row >= first && row + block.count <= first + height { shown.append(device) }
      row += block.count
    }
    scrolled(
      lines, in: rect, &canvas, start: first, unit: "devices",
      counted: ((shown.first ?? index) + 1, (shown.last ?? index) + 1, watched.count))
  }

  /// Where to point the app, while none has registered.
  static func emptyHelp(_ model: InspectorModel) -> [Line] {
    var lines: [Line] = [[("no app has registered yet", .dim)]]
    guard let url = model.receivingAt else { return lines }
    let port = url.split(separator: ":").last.map(String.init) ?? ""
    lines.append([("point your app's server URL at", .dim)])
    lines.append([("  " + TerminalText.escaped(url), .accent)])
    lines.append([("or, from the Android emulator,", .dim)])
    lines.append([("  http://10.0.2.2:\(TerminalText.escaped(port))", .accent)])
    for (index, line) in model.receivingApp.enumerated() {
      lines.append(
        index == 0
          ? [(TerminalText.escaped(line), .dim)] : [("  " + TerminalText.escaped(line), .accent)])
    }
    lines.append([("  (docs/watch.md: Watch your own app)", .dim)])
    return lines
  }

  /// One device's rows: its id and findings, its SDK, a refusal if any, its contact.
  static func deviceBlock(
    _ model: InspectorModel, _ device: DeviceWatch.Device, selected: Bool, width: Int = 1_000
  ) -> [Line] {
    var lines: [Line] = []
    let identity = device.identity
    let summary = findingsSummary(device)
    // The id gives way to the summary on a narrow pane (the timeline's title has it whole).
    let idWidth = max(8, min(19, width - 2 - TextWidth.of(summary.0)))
    lines.append([
      (selected ? "> " : "  ", .accent),
      (
        TextWidth.column(
          TextWidth.truncate(
            TerminalText.escaped(String(device.deviceID.prefix(18))), to: idWidth - 1),
          idWidth), .normal
      ),
      summary,
    ])
    lines.append([
      // The name says the rules too: the version's, 10.x's for a later major, the
      // documented ones for an unknown SDK (the API and a judged capture spell the profile).
      ("    " + TerminalText.escaped(identity.sdkName), .dim),
      (identity.appVersion.map { "  app " + TerminalText.escaped($0) } ?? "", .dim),
    ])
    let refusedLast = device.registrations.last?.refused ?? false
    if let refusal = device.lastRefusal, refusedLast {
      // First contact: what the server refused; the Findings pane has the whole fix.
      lines.append([
        ("    refused \(device.refusedCount)x (\(refusal.status)): ", .error),
        (TerminalText.escaped(refusal.reason), .normal),
      ])
    } else if device.refusedCount > 0 {
      lines.append([("    refused \(device.refusedCount)x earlier; accepted since", .dim)])
    }
    let contact =
      device.lastSent?.subscriberKey.map { TerminalText.escaped($0) }
      ?? (device.lastSent == nil ? "(nothing accepted yet)" : "(no contact key)")
    let seen = "seen \(model.format(device.lastSeen))"
    // When is said whole: beside the contact, or under it.
    if TextWidth.of("    " + contact + "  " + seen) <= width {
      lines.append([("    " + contact, .normal), ("  " + seen, .dim)])
    } else {
      lines += [[("    " + contact, .normal)], [("    " + seen, .dim)]]
    }
    return [lines[0]] + Panes.wrapped(Array(lines.dropFirst()), width: width, indent: 4)
  }

  /// The worst severity first: "2 violations", "1 warning", "3 notes", or "ok".
  static func findingsSummary(_ device: DeviceWatch.Device) -> Span {
    // The tenant's newest word first: a registration that did not arrive outranks findings.
    if let readBack = device.readBacks.last, readBack.outcome.isFailure {
      return ("tenant: " + readBack.outcome.word, .error)
    }
    for (severity, role) in [(Finding.Severity.violation, StyleRole.error), (.warning, .warning)] {
      let count = device.severityCounts[severity] ?? 0
      if count > 0 { return ("\(count) \(severity.rawValue)\(count == 1 ? "" : "s")", role) }
    }
    // An app that keeps the rules is not "ok" while its newest send was not taken (the tenant
    // refused it through a relay, a fault answered it): the retry is still to come.
    if let last = device.registrations.last, !last.refused,
      !(200..<300).contains(last.status ?? 0)
    {
      let by = last.local ? " (relay)" : ""
      return (last.status.map { "last \($0)\(by)" } ?? "last: no answer", .warning)
    }
    let notes = device.severityCounts[.note] ?? 0
    return notes > 0 ? ("\(notes) note\(notes == 1 ? "" : "s")", .dim) : ("ok", .success)
  }

  /// A glyph and a colour for each severity.
  static func mark(_ severity: Finding.Severity, _ glyphs: Glyphs) -> Span {
    switch severity {
    case .violation: (glyphs.cross + " ", .error)
    case .warning: ("! ", .warning)
    case .note: ("i ", .dim)
    }
  }

  /// Each finding, newest first: its severity's glyph, code and rule, then the message
  /// wrapped beside them, so that the cause and the fix are read whole.
  static func findings(_ device: DeviceWatch.Device?, _ glyphs: Glyphs, width: Int)
    -> [Line]
  {
    guard let device else { return [] }
    let all = device.registrations.reversed().flatMap { entry in entry.findings }
    guard !all.isEmpty else { return [[("none: this app keeps to the rules so far", .success)]] }
    // The code's column as wide as the longest code shown, so the rules line up.
    let codeWidth = max(18, (all.map { $0.code.rawValue.count }.max() ?? 0) + 1)
    let beside = 2 + codeWidth + 6
    // A narrow pane says the message under its code rather than in a sliver beside it.
    let under = width - beside < 36
    let indent = under ? 4 : beside
    return all.flatMap { finding -> [Line] in
      let (glyph, role) = mark(finding.severity, glyphs)
      let text: StyleRole = finding.severity == .note ? .dim : .normal
      let head: Line = [
        (glyph, role), (TextWidth.column(finding.code.rawValue, codeWidth), role),
        (TextWidth.column(finding.rule, 6), .accent),
      ]
      let wrapped = TextWidth.wrap(
        TerminalText.escaped(finding.message), width: max(10, width - indent))
      let fix =
        finding.fix.map {
          TextWidth.wrap("fix: " + TerminalText.escaped($0), width: max(10, width - indent))
        } ?? []
      let pad: Line = [(String(repeating: " ", count: indent), .normal)]
      let said =
        under
        ? [head] + wrapped.map { pad + [($0, text)] }
        : wrapped.enumerated().map { index, line in (index == 0 ? head : pad) + [(line, text)] }
      return said + fix.map { pad + [($0, .accent)] }
    }
  }

  static func lastBody(_ model: InspectorModel) -> [Line] {
    guard let device = model.selectedDevice,
      let entry = device.registrations.last(where: { !$0.body.isEmpty })
    else { return [] }
    // A change line carries its own sign ("+ tags a", "- tags b"); a changed value gets "~".
    var lines: [Line] = entry.changes.map { change in
      [(change.hasPrefix("+ ") || change.hasPrefix("- ") ? change : "~ " + change, .changed)]
    }
    lines += (model.receiver.body?.lines ?? []).map { [("  " + TerminalText.escaped($0), .normal)] }
    return lines
  }

}
