import RegistrationCore

extension RunEvent {
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
      case .received(let id, let deviceID, let status, let processAt):
        text = "server: #\(id) answered \(status) to \(deviceID), processing at \(time(processAt))"
      case .refused(let status, let reason, let deviceID):
        let words = reason.hasPrefix("refused: ") ? String(reason.dropFirst(9)) : reason
        text = "server: refused \(deviceID ?? "a request") (\(status)): \(words)"
      case .finding(let deviceID, let finding):
        text =
          "\(deviceID): \(finding.severity.rawValue) \(finding.code) (\(finding.rule)): \(finding.message)"
          + (finding.fix.map { "; fix: \($0)" } ?? "")
      case .faulted(let summary):
        text = "server: injected fault, \(summary)"
      case .adopted(let appID, let token):
        text =
          "server: adopted app \(appID) and its token \(token) from the first request (--any-app)"
      case .processed(let id, _, let contactKey, let madeUp):
        text =
          "server: #\(id) processed, device is contact \(contactKey)\(madeUp ? " (made up by the server)" : "")"
      case .rejected(let id, _, let reason):
        text = "server: #\(id) rejected in processing: \(reason)"
      case .orphaned(let contactKey, let madeUp, let reason):
        text = "server: contact \(contactKey)\(madeUp ? " (made up)" : "") is orphaned: \(reason)"
      case .readBack(let deviceID, let summary, _):
        text = "\(deviceID): \(summary)"
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
    // Rounded to the millisecond once, before it is split: 59.9996 is 0:01:00, never
    // 0:00:59 with a thousandth millisecond.
    let totalMillis = Int((seconds * 1000).rounded())
    let whole = totalMillis / 1000
    let millis = totalMillis % 1000
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
