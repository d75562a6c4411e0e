import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine
import Scenarios

/// The seven panes, each a function of the model and its rectangle.
enum Panes {
  static func draw(_ pane: PaneID, _ model: InspectorModel, _ rect: Rect, _ canvas: inout Canvas) {
    let inner = rect.inner
    let offset = model.scroll[pane] ?? 0
    var lines: [[(String, StyleRole)]]
    switch pane {
    case .record: lines = record(model)
    case .pending: lines = pending(model)
    case .throttle: lines = throttle(model)
    case .backoff: lines = backoff(model, width: inner.width)
    case .events: lines = []
    case .server: lines = server(model)
    case .payload: lines = payload(model)
    }
    if pane == .events {
      events(model, inner, &canvas)
      return
    }
    if lines.isEmpty { lines = [[("(nothing yet)", .dim)]] }
    let start = min(offset, max(0, lines.count - inner.height))
    for (row, segments) in lines.dropFirst(start).prefix(inner.height).enumerated() {
      canvas.line(inner, row, segments)
    }
    if lines.count > inner.height, inner.height > 0 {
      let more = "\(start + 1)-\(min(lines.count, start + inner.height))/\(lines.count)"
      canvas.buffer.put(
        " \(more) ", x: rect.x + rect.width - more.count - 4, y: rect.y + rect.height - 1,
        role: .dim)
    }
  }

  static func text(_ value: String) -> String { TerminalText.escaped(value) }

  static func label(_ name: String, _ width: Int = 12) -> (String, StyleRole) {
    (TextWidth.column(name, width), .dim)
  }

  // MARK: 1 Contact record

  static func record(_ model: InspectorModel) -> [[(String, StyleRole)]] {
    guard let device = model.device else { return [[("launching…", .dim)]] }
    let record = device.state.record
    let acked = device.state.lastAcknowledged?.payload
    let g = model.glyphs
    func role(_ differs: Bool) -> StyleRole { differs ? .changed : .normal }
    var lines: [[(String, StyleRole)]] = []
    let keyDiffers = acked != nil && acked?.subscriberKey != record.contactKey
    lines.append([
      label("contact key"),
      record.contactKey.map { (text($0), role(keyDiffers)) } ?? ("(none)", .dim),
    ])
    lines.append([("attributes", .accent)])
    if record.attributes.isEmpty && record.clearedAttributes.isEmpty {
      lines.append([("  (none)", .dim)])
    }
    let ackedAttributes = Dictionary(
      (acked?.attributes ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    for (key, value) in record.attributes.sorted(by: { $0.key < $1.key }) {
      let differs = acked != nil && ackedAttributes[key] != value
      lines.append([
        ("  " + TextWidth.column(text(key), 14), .normal),
        (text(value), role(differs)),
      ])
    }
    for key in record.clearedAttributes.sorted() where record.attributes[key] == nil {
      lines.append([
        ("  " + TextWidth.column(text(key), 14), .normal),
        ("cleared: sent once as \"\"", .changed),
      ])
    }
    lines.append([("tags", .accent)])
    let locked = device.settings.systemTags(hwid: record.device.environment.hwid)
    var tagLine: [(String, StyleRole)] = [("  ", .normal)]
    let ackedTags = Set(acked?.tags ?? [])
    for tag in device.settings.allTags(of: record) {
      if locked.contains(tag) {
        tagLine.append((g.lock + " " + tag + "  ", .locked))
      } else {
        tagLine.append((text(tag) + "  ", role(acked != nil && !ackedTags.contains(tag))))
      }
    }
    lines.append(tagLine)
    let removedTags = ackedTags.subtracting(device.settings.allTags(of: record))
    if !removedTags.isEmpty {
      lines.append([
        ("  removed: " + removedTags.sorted().map(text).joined(separator: " "), .changed)
      ])
    }
    let env = record.device.environment
    func field(_ name: String, _ value: String, _ wire: KeyPath<RegistrationPayload, String?>?)
      -> [(String, StyleRole)]
    {
      let differs = wire.map { acked != nil && acked?[keyPath: $0] != value } ?? false
      return [label("  " + name, 14), (text(value), role(differs))]
    }
    lines.append([("device", .accent)])
    lines.append(field("deviceID", record.device.deviceID, \.deviceID))
    lines.append(field("etAppId", record.device.etAppId, \.etAppId))
    lines.append(
      field("platform", "\(record.device.platform.rawValue) \(env.platformVersion)", nil))
    lines.append(field("app / sdk", "\(env.appVersion) / \(env.sdkVersion)", nil))
    lines.append(field("push token", env.deviceToken ?? "(none)", nil))
    lines.append(field("time zone", "\(env.timeZone) s, DST \(env.dst ? "on" : "off")", nil))
    lines.append(field("locale", "\(env.locale) / \(env.language)", nil))
    func flag(_ name: String, _ on: Bool) -> String { "\(name) \(on ? g.check : g.cross)" }
    lines.append([
      label("  enabled", 14),
      (
        "\(flag("push", env.pushEnabled))  \(flag("quiet", env.quietPushEnabled))  \(flag("location", env.locationEnabled))  \(flag("proximity", env.proximityEnabled))",
        .normal
      ),
    ])
    if device.settings.platform == .iOS {
      lines.append(field("badge", env.badge.map(String.init) ?? "(none)", nil))
    }
    lines.append([
      label("  app state", 14),
      (device.appState.rawValue, device.appState == .background ? .warning : .normal),
    ])
    if !device.missingRequired.isEmpty {
      lines.append([
        ("missing required (R6.3): " + device.missingRequired.joined(separator: ", "), .error)
      ])
    }
    if acked == nil {
      lines.append([("nothing acknowledged yet", .dim)])
    } else {
      lines.append([("highlight: not yet acknowledged", .dim)])
    }
    return lines
  }

  // MARK: 2 Pending changes

  static func pending(_ model: InspectorModel) -> [[(String, StyleRole)]] {
    guard let device = model.device else { return [] }
    let inFlight = device.inFlight?.coveredSeq ?? 0
    var lines: [[(String, StyleRole)]] = device.state.pending.map { change in
      let seconds = max(0, model.now - change.firstAt).rounded(.down)
      let age = seconds < 1 ? "just now" : DurationText.describe(seconds) + " ago"
      let sending = change.seq <= inFlight ? " (on the wire)" : ""
      return [
        (TextWidth.column(age, 13), .dim),
        (text(change.summary) + sending, change.seq <= inFlight ? .dim : .normal),
      ]
    }
    if lines.isEmpty { lines = [[("nothing pending", .dim)]] }
    return lines
  }

  // MARK: 3 Throttle

  static func throttle(_ model: InspectorModel) -> [[(String, StyleRole)]] {
    guard let device = model.device else { return [] }
    switch device.plan {
    case .idle:
      var lines: [[(String, StyleRole)]] = [[("idle", .success), (": nothing to send", .normal)]]
      if let success = device.state.scheduler.lastSuccessAt {
        let window = success + RetryPolicy.throttle - model.now
        if window > 0 {
          lines.append([("a change now waits \(DurationText.describe(window.rounded(.up)))", .dim)])
        }
      }
      return lines
    case .inFlight(let since):
      return [
        [
          ("sending", .accent),
          (" for \(DurationText.describe(max(0, model.now - since)))…", .normal),
        ]
      ]
    case .delayedForContactKey:
      return [
        [("delayed", .warning)],
        [("waiting for a contact key", .normal)],
        [("delay until key is set (R3.5)", .dim)],
      ]
    case .blocked(let missing):
      return [[("not sent: missing \(missing.joined(separator: ", ")) (R6.3)", .error)]]
    case .due(let at, let reason, let openedBy):
      let left = max(0, at - model.now)
      let countdown = left <= 0 ? "now" : "in \(DurationText.describe(left.rounded(.up)))"
      let why: String
      switch reason {
      case .initial: why = "the initial registration (R3.1)"
      case .retry: why = "a retry after a failure: see Backoff"
      case .change:
        return [
          [("next send ", .normal), (countdown, .countdown)],
          [(device.settings.profile.changeRule, .dim)],
          [("  " + (openedBy.map { text($0.description) } ?? "a change"), .normal)],
        ]
      }
      return [[("next send ", .normal), (countdown, .countdown)], [(why, .dim)]]
    }
  }

  // MARK: 4 Backoff

  static func backoff(_ model: InspectorModel, width: Int) -> [[(String, StyleRole)]] {
    guard let device = model.device else { return [] }
    let ladder = RetryPolicy.ladder
    let g = model.glyphs
    guard let retry = device.state.scheduler.retry else {
      let rungs = ladder.map { _ in g.rungAhead }.joined()
      return [
        [("no failures", .success)],
        [("ladder ", .dim), (rungs, .dim), (" 1 min to 1 d", .dim)],
      ]
    }
    let what = retry.lastStatus.map { "HTTP \($0)" } ?? (retry.lastError.map(text) ?? "no answer")
    let left = max(0, retry.nextAttemptAt - model.now)
    let rung = min(retry.failures, ladder.count) - 1
    var rungs: [(String, StyleRole)] = [("ladder ", .dim)]
    for index in ladder.indices {
      if index < rung {
        rungs.append((g.rungDone, .warning))
      } else if index == rung {
        rungs.append((g.rungCurrent, .error))
      } else {
        rungs.append((g.rungAhead, .dim))
      }
    }
    rungs.append((" " + DurationText.describe(retry.nextAttemptAt - retry.failedAt), .normal))
    var lines: [[(String, StyleRole)]] = [
      [("\(retry.failures) failure\(retry.failures == 1 ? "" : "s") in a row", .error)],
      [("last: ", .dim), (what, .normal)],
      [
        ("next retry ", .normal),
        (left <= 0 ? "now" : "in \(DurationText.describe(left.rounded(.up)))", .countdown),
      ],
      rungs,
    ]
    if retry.failures > ladder.count {
      lines.append([("at the cap: retrying once a day (R4.1)", .dim)])
    }
    if retry.needsFix {
      lines.append([
        (
          "needs a fix: \(retry.lastStatus.map(String.init) ?? "") will not heal by waiting (R4.5)",
          .error
        )
      ])
    }
    if retry.lastError?.hasPrefix("too early") == true {
      lines.append([("android: too early, answered locally 429; nothing was sent", .warning)])
    }
    lines.append([(device.settings.profile.retryRule, .dim)])
    return lines
  }

  // MARK: 5 Events

  static func events(_ model: InspectorModel, _ inner: Rect, _ canvas: inout Canvas) {
    let visible = model.visibleEvents
    guard inner.height > 0 else { return }
    if visible.isEmpty {
      canvas.line(
        inner, 0,
        [(model.eventFilter.isEmpty ? "(no events yet)" : "(no event matches the filter)", .dim)])
      return
    }
    let end = max(0, visible.count - model.eventsBack)
    let start = max(0, end - inner.height)
    for (row, event) in visible[start..<end].enumerated() {
      let role: StyleRole
      switch event.type {
      case "warning", "orphaned", "inputRejected": role = .warning
      case "failed": role = .error
      case "sent": role = .success
      case "serverProcessed":
        if case .server(.rejected) = event.body { role = .error } else { role = .normal }
      default: role = .normal
      }
      canvas.line(
        inner, row,
        [
          (model.format(event.t) + " ", .dim),
          (
            TextWidth.column(event.type, 15),
            role == .normal ? .accent : role
          ),
          (event.detail(time: model.format), role),
        ])
    }
  }

  // MARK: 6 Server

  static func server(_ model: InspectorModel) -> [[(String, StyleRole)]] {
    guard let server = model.server else {
      return [[("a remote server: nothing local to show", .dim)]]
    }
    let stats = server.stats
    var lines: [[(String, StyleRole)]] = [
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
      var segments: [(String, StyleRole)] = [
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
      var segments: [(String, StyleRole)] = [
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

  // MARK: 7 Payload

  static func payload(_ model: InspectorModel) -> [[(String, StyleRole)]] {
    // After a restart, or for an imported device, the stored acknowledged registration.
    guard let last = model.lastPayloads.last ?? model.device?.state.lastAcknowledged?.payload
    else {
      return [[("no registration sent yet", .dim)]]
    }
    let previous = Set(
      model.lastPayloads.previous.map { $0.prettyBody().split(separator: "\n").map(String.init) }
        ?? [])
    var lines: [[(String, StyleRole)]] = []
    if model.lastPayloads.previous == nil {
      lines.append([("the first registration sent", .dim)])
    } else {
      lines.append([("+ marks what changed since the send before", .dim)])
    }
    for line in last.prettyBody().split(separator: "\n").map(String.init) {
      let changed = model.lastPayloads.previous != nil && !previous.contains(line)
      lines.append([((changed ? "+ " : "  ") + text(line), changed ? .changed : .normal)])
    }
    return lines
  }
}
