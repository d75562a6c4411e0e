import EngagementCore
import RegistrationCore

/// A JSON object written in the order its fields are added, so every line starts with
/// `{"t": ..., "type": ...}` as DESIGN.md shows.
public struct JSONLine {
  public init() {}

  private var bytes: [UInt8] = [UInt8(ascii: "{")]
  private var first = true

  private mutating func key(_ name: String) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    first = false
    JSONText.appendQuoted(name, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
  }

  public mutating func add(_ name: String, _ value: String?) {
    key(name)
    if let value { JSONText.appendQuoted(value, to: &bytes) } else { bytes += Array("null".utf8) }
  }

  public mutating func add(_ name: String, _ value: Double?) {
    key(name)
    guard let value else {
      bytes += Array("null".utf8)
      return
    }
    let text = value == value.rounded() && abs(value) < 1e15 ? "\(Int(value)).0" : "\(value)"
    bytes += Array(text.utf8)
  }

  public mutating func add(_ name: String, _ value: Int?) {
    key(name)
    bytes += Array((value.map(String.init) ?? "null").utf8)
  }

  public mutating func add(_ name: String, _ value: Bool) {
    key(name)
    bytes += Array((value ? "true" : "false").utf8)
  }

  /// Already-encoded JSON, such as a registration body.
  public mutating func addRaw(_ name: String, _ json: [UInt8]) {
    key(name)
    bytes += json
  }

  public var text: String { String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self) }
}

extension RunEvent {
  /// The event stream line (`regctl run --json`): `{"t": 70.0, "type": "sent", ...}`.
  public var jsonLine: String {
    var line = JSONLine()
    line.add("t", t.seconds)
    line.add("type", type)
    switch body {
    case .engine(let event): addFields(of: event, to: &line)
    case .server(let event): Self.addFields(of: event, to: &line)
    }
    return line.text
  }

  private func addFields(of event: RegistrationEvent, to line: inout JSONLine) {
    switch event {
    case .launched(let firstLaunch, let deviceID):
      line.add("firstLaunch", firstLaunch)
      line.add("deviceID", deviceID)
    case .edited(let change):
      line.add("target", change.target.description)
      line.add("change", change.summary)
      // Since when this field has been changed and not yet sent (the window is the
      // `scheduled` event's: its `at` and `openedBy`).
      line.add("pendingSince", change.firstAt.seconds)
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
      line.addRaw("payload", sentBytes ?? payload.encodedBytes())
    case .sent(let sendID, let attempt, let status, let payload):
      line.add("sendID", sendID)
      line.add("attempt", attempt)
      line.add("status", status)
      line.addRaw("payload", sentBytes ?? payload.encodedBytes())
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
  }

  private static func addFields(of event: ServerEvent, to line: inout JSONLine) {
    switch event {
    case .received(let id, let deviceID, let status, let processAt):
      line.add("registrationId", id)
      line.add("deviceID", deviceID)
      line.add("status", status)
      line.add("processAt", processAt.seconds)
    case .refused(let status, let reason, let deviceID):
      line.add("status", status)
      line.add("reason", reason)
      if let deviceID { line.add("deviceID", deviceID) }
    case .finding(let deviceID, let finding):
      line.add("deviceID", deviceID)
      line.add("code", finding.code.rawValue)
      line.add("severity", finding.severity.rawValue)
      line.add("rule", finding.rule)
      line.add("message", finding.message)
      if let fix = finding.fix { line.add("fix", fix) }
    case .faulted(let summary):
      line.add("fault", summary)
    case .adopted(let appID, let token):
      line.add("adoptedAppId", appID)
      line.add("token", token)
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
    case .readBack(let deviceID, let summary, let allHeld):
      line.add("deviceID", deviceID)
      line.add("result", "readBack")
      line.add("allHeld", allHeld)
      line.add("summary", summary)
    }
  }
}
