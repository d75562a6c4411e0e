import EngagementServer
import RegistrationCore

/// One thing that happened in a run: a decision of the engine, or something the server did.
public struct RunEvent: Hashable, Sendable {
  public enum Body: Hashable, Sendable {
    case engine(RegistrationEvent)
    case server(ServerEvent)
  }

  /// Seconds since the start of the run (virtual time in scenarios).
  public var t: Instant
  public var body: Body

  public init(t: Instant, body: Body) {
    self.t = t
    self.body = body
  }

  public var type: String {
    switch body {
    case .engine(let event): event.type
    case .server(let event): event.type
    }
  }
}

/// A JSON object written in the order its fields are added, so every line starts with
/// `{"t": ..., "type": ...}` as DESIGN.md shows.
struct JSONLine {
  private var bytes: [UInt8] = [UInt8(ascii: "{")]
  private var first = true

  private mutating func key(_ name: String) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    first = false
    JSONText.appendQuoted(name, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
  }

  mutating func add(_ name: String, _ value: String?) {
    key(name)
    if let value { JSONText.appendQuoted(value, to: &bytes) } else { bytes += Array("null".utf8) }
  }

  mutating func add(_ name: String, _ value: Double?) {
    key(name)
    guard let value else {
      bytes += Array("null".utf8)
      return
    }
    let text = value == value.rounded() && abs(value) < 1e15 ? "\(Int(value)).0" : "\(value)"
    bytes += Array(text.utf8)
  }

  mutating func add(_ name: String, _ value: Int?) {
    key(name)
    bytes += Array((value.map(String.init) ?? "null").utf8)
  }

  mutating func add(_ name: String, _ value: Bool) {
    key(name)
    bytes += Array((value ? "true" : "false").utf8)
  }

  /// Already-encoded JSON, such as a registration body.
  mutating func addRaw(_ name: String, _ json: [UInt8]) {
    key(name)
    bytes += json
  }

  var text: String { String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self) }
}

extension RunEvent {
  /// The event stream line (`regctl run --json`): `{"t": 70.0, "type": "sent", ...}`.
  public var jsonLine: String {
    var line = JSONLine()
    line.add("t", t.seconds)
    line.add("type", type)
    switch body {
    case .engine(let event):
      switch event {
      case .launched(let firstLaunch, let deviceID):
        line.add("firstLaunch", firstLaunch)
        line.add("deviceID", deviceID)
      case .edited(let change):
        line.add("target", change.target.description)
        line.add("change", change.summary)
        line.add("windowOpenedAt", change.firstAt.seconds)
      case .inputRejected(let rejection):
        line.add("rule", rejection.rule)
        line.add("field", rejection.field)
        line.add("reason", rejection.reason)
      case .warning(let warning):
        line.add("code", warning.code.rawValue)
        line.add("rule", warning.rule)
        line.add("message", warning.message)
      case .scheduled(let at, let reason, let openedBy, _):
        line.add("at", at.seconds)
        line.add("reason", reason.rawValue)
        line.add("openedBy", openedBy?.description)
      case .delayed(let reason):
        line.add("reason", reason)
      case .sending(let sendID, let attempt, let reason, let payload):
        line.add("sendID", sendID)
        line.add("attempt", attempt)
        line.add("reason", reason.rawValue)
        line.addRaw("payload", payload.encodedBytes())
      case .sent(let sendID, let attempt, let status, let payload):
        line.add("sendID", sendID)
        line.add("attempt", attempt)
        line.add("status", status)
        line.addRaw("payload", payload.encodedBytes())
      case .failed(
        let sendID, let attempt, let status, let error, let retryAt, let needsFix, let local):
        line.add("sendID", sendID)
        line.add("attempt", attempt)
        line.add("status", status)
        line.add("error", error)
        line.add("retryAt", retryAt.seconds)
        line.add("needsFix", needsFix)
        if local { line.add("local", true) }
      case .sendSkipped(let reason):
        line.add("reason", reason)
      }
    case .server(let event):
      switch event {
      case .received(let id, let deviceID, let status, let processAt):
        line.add("registrationId", id)
        line.add("deviceID", deviceID)
        line.add("status", status)
        line.add("processAt", processAt.seconds)
      case .refused(let status, let reason):
        line.add("status", status)
        line.add("reason", reason)
      case .faulted(let summary):
        line.add("fault", summary)
      case .processed(let id, let deviceID, let contactKey, let madeUp):
        line.add("registrationId", id)
        line.add("deviceID", deviceID)
        line.add("result", "processed")
        line.add("contactKey", contactKey)
        line.add("madeUp", madeUp)
      case .rejected(let id, let deviceID, let reason):
        line.add("registrationId", id)
        line.add("deviceID", deviceID)
        line.add("result", "rejected")
        line.add("reason", reason)
      case .orphaned(let contactKey, let madeUp, let reason):
        line.add("contactKey", contactKey)
        line.add("madeUp", madeUp)
        line.add("reason", reason)
      }
    }
    return line.text
  }

  /// One readable sentence for the timeline: what happened and why, escaped for a terminal.
  public var detail: String { detail(time: Timestamp.format) }

  /// The same, with times written by `time` (wall-clock times in a live session).
  public func detail(time: (Instant) -> String) -> String {
    let text: String
    switch body {
    case .engine(let event):
      switch event {
      case .launched(let firstLaunch, let deviceID):
        text =
          firstLaunch
          ? "first launch: new device \(deviceID)"
          : "relaunched from the store (device \(deviceID))"
      case .edited(let change):
        text = "\(change.target): \(change.summary)"
      case .inputRejected(let rejection):
        text = "refused: \(rejection.field) \(rejection.reason) (\(rejection.rule))"
      case .warning(let warning):
        text = "\(warning.code.rawValue): \(warning.message) (\(warning.rule))"
      case .scheduled(let at, let reason, _, let rule):
        let why: String
        switch reason {
        case .initial: why = "the initial registration"
        case .retry: why = "retry after a failure"
        case .change: why = rule
        }
        text = "next send at \(time(at)): \(why)"
      case .delayed(let reason):
        text = "held: \(reason)"
      case .sending(_, let attempt, let reason, let payload):
        text =
          "POST /device/v1/registration, attempt \(attempt) (\(reason.rawValue)): \(PayloadSummary.short(payload))"
      case .sent(_, let attempt, let status, _):
        text = "\(status) received (attempt \(attempt)); the server processes it later"
      case .failed(_, let attempt, let status, let error, let retryAt, let needsFix, let local):
        if local {
          text =
            "attempt \(attempt) not sent: \(error ?? "answered on the device"); alarm at \(time(retryAt))"
        } else {
          let what = status.map { "HTTP \($0)" } ?? (error ?? "no answer")
          text =
            "attempt \(attempt) failed: \(what); retry at \(time(retryAt))"
            + (needsFix ? " (needs a fix: waiting will not heal a \(status ?? 0))" : "")
        }
      case .sendSkipped(let reason):
        text = "not sent: \(reason)"
      }
    case .server(let event):
      switch event {
      case .received(let id, _, let status, let processAt):
        text = "server: #\(id) answered \(status), processing at \(time(processAt))"
      case .refused(let status, let reason):
        text = "server: answered \(status): \(reason)"
      case .faulted(let summary):
        text = "server: injected fault, \(summary)"
      case .processed(let id, _, let contactKey, let madeUp):
        text =
          "server: #\(id) processed, device is contact \(contactKey)\(madeUp ? " (made up by the server)" : "")"
      case .rejected(let id, _, let reason):
        text = "server: #\(id) rejected in processing: \(reason)"
      case .orphaned(let contactKey, let madeUp, let reason):
        text = "server: contact \(contactKey)\(madeUp ? " (made up)" : "") is orphaned: \(reason)"
      }
    }
    return TerminalText.escaped(text)
  }
}

/// Virtual time as a reader wants it: `0:01:10`, `2d 03:00:00`, with milliseconds when needed.
public enum Timestamp {
  public static func format(_ instant: Instant) -> String {
    let seconds = instant.seconds
    guard seconds.isFinite, seconds >= 0, seconds < 1e12 else { return "\(seconds) s" }
    let whole = Int(seconds.rounded(.down))
    let millis = Int(((seconds - Double(whole)) * 1000).rounded())
    let days = whole / 86_400
    let hours = (whole % 86_400) / 3600
    let minutes = (whole % 3600) / 60
    let secs = whole % 60
    var text = days > 0 ? "\(days)d " : ""
    text += days > 0 ? pad(hours) : String(hours)
    text += ":" + pad(minutes) + ":" + pad(secs)
    if millis > 0 {
      text += "." + String(repeating: "0", count: 3 - String(millis).count) + String(millis)
    }
    return text
  }

  private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}

/// A registration in one line: who, and what it carries.
enum PayloadSummary {
  static func short(_ payload: RegistrationPayload) -> String {
    var parts: [String] = []
    parts.append(payload.subscriberKey.map { "contact key \"\($0)\"" } ?? "no contact key")
    let attributes = (payload.attributes ?? []).map { "\($0.key)=\"\($0.value)\"" }
    if !attributes.isEmpty { parts.append("attributes " + attributes.joined(separator: " ")) }
    parts.append("tags " + (payload.tags ?? []).joined(separator: " "))
    return parts.joined(separator: "; ")
  }
}
