import EngagementCore
import EngagementServer
import RegistrationCore
import RegistrationEngine
import Session
import SessionValues

/// One `expect:` of a scenario: `sent == 2`, `server.orphanedContacts == 1`,
/// `lastSent.tags has sports`, `nextSend == 3m`, `contactKey == "user@example.com"`.
public struct Expectation: Hashable, Sendable, CustomStringConvertible {
  public enum Operator: String, Hashable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case atLeast = ">="
    case atMost = "<="
    case more = ">"
    case less = "<"
    case has
    case lacks
  }

  public var subject: String
  public var op: Operator
  public var expected: String

  public var description: String { "\(subject) \(op.rawValue) \(CommandWords.quote(expected))" }

  /// The names an expectation can check, for errors and `regctl scenarios --help-expect`.
  public static let subjects: [String] =
    eventTypes + WarningCode.allCases.map { "warnings.\($0.rawValue)" } + [
      "pending", "attempt", "needsFix", "lastStatus", "contactKey", "attr.KEY", "tags", "plan",
      "nextSend", "lastSent.subscriberKey", "lastSent.device_Token", "lastSent.tags",
      "lastSent.attr.KEY", "lastSent.push_Enabled",
    ] + serverSubjects.map { "server.\($0)" }

  static let eventTypes = EventKind.allCases.map(\.rawValue)
  static let serverSubjects = [
    "distinctContacts", "orphanedContacts", "madeUpContacts", "devices", "activeDevices",
    "pending", "processed", "rejected", "received",
  ]

  public static func parse(_ text: String) throws(CommandError) -> Expectation {
    let words: [CommandWords.Word]
    do {
      words = try CommandWords.split(text)
    } catch {
      throw CommandError(column: error.column, message: error.message)
    }
    guard words.count == 3 else {
      throw CommandError(
        column: words.count > 3 ? words[3].column : text.count + 1,
        message:
          "an expectation is NAME OP VALUE, like \"sent == 2\" (quote a value with spaces)")
    }
    let subject = words[0].text
    if !isKnown(subject) {
      var message =
        "unknown name \"\(subject)\"; expected an event count (sent, failed, ...), a record field, lastSent.FIELD or server.COUNT"
      let candidates = subjects.map { $0.replacingOccurrences(of: ".KEY", with: "") }
      if let nearest = Suggestion.nearest(to: subject, in: candidates) {
        message += ". Did you mean \"\(nearest)\"?"
      }
      throw CommandError(column: words[0].column, message: message)
    }
    guard let op = Operator(rawValue: words[1].text) else {
      throw CommandError(
        column: words[1].column,
        message:
          "unknown operator \"\(words[1].text)\"; expected \(Operator.allCases.map(\.rawValue).joined(separator: " "))"
      )
    }
    return Expectation(subject: subject, op: op, expected: words[2].text)
  }

  static func isKnown(_ subject: String) -> Bool {
    if subjects.contains(subject) { return true }
    for prefix in ["attr.", "lastSent.attr."] where subject.hasPrefix(prefix) {
      return subject.count > prefix.count
    }
    return false
  }

  // MARK: Evaluating

  public struct Context: Sendable {
    public var events: [RunEvent]
    public var device: EngineSnapshot?
    public var server: ServerSnapshot

    public init(events: [RunEvent], device: EngineSnapshot?, server: ServerSnapshot) {
      self.events = events
      self.device = device
      self.server = server
    }
  }

  enum Value: CustomStringConvertible {
    case number(Double)
    /// An instant of the run, written as a time since its start, never as raw seconds.
    case instant(Double)
    case text(String)
    case flag(Bool)
    case list([String])
    case none

    var description: String {
      switch self {
      case .number(let value):
        NumberText.compact(value)
      case .instant(let seconds): Timestamp.format(Instant(seconds))
      case .text(let text): "\"\(text)\""
      case .flag(let flag): String(flag)
      case .list(let items): "[" + items.joined(separator: ", ") + "]"
      case .none: "none"
      }
    }
  }

  /// Whether it holds, and the actual value, for the report.
  public func evaluate(in context: Context) -> (passed: Bool, actual: String) {
    let actual = value(in: context)
    return (compare(actual), "\(subject) = \(TerminalText.escaped(actual.description))")
  }

  func value(in context: Context) -> Value {
    if Self.eventTypes.contains(subject) {
      return .number(Double(context.events.filter { $0.type == subject }.count))
    }
    if subject.hasPrefix("warnings.") {
      let code = subject.dropFirst("warnings.".count)
      return .number(
        Double(
          context.events.filter {
            if case .engine(.warning(let warning)) = $0.body {
              return warning.code.rawValue == code
            }
            return false
          }.count))
    }
    if subject.hasPrefix("server.") {
      let stats = context.server.stats
      switch subject.dropFirst("server.".count) {
      case "distinctContacts": return .number(Double(stats.distinctContacts))
      case "orphanedContacts": return .number(Double(stats.orphanedContacts))
      case "madeUpContacts": return .number(Double(stats.madeUpContacts))
      case "devices": return .number(Double(stats.devices))
      case "activeDevices": return .number(Double(stats.activeDevices))
      case "pending": return .number(Double(stats.pending))
      case "processed": return .number(Double(stats.processed))
      case "rejected": return .number(Double(stats.rejected))
      default: return .number(Double(stats.received))
      }
    }
    if subject.hasPrefix("lastSent.") {
      let sent = context.events.last { $0.kind == .sent }
      guard case .engine(.sent(_, _, _, let payload)) = sent?.body else { return .none }
      let field = String(subject.dropFirst("lastSent.".count))
      if field.hasPrefix("attr.") {
        let key = field.dropFirst("attr.".count)
        return (payload.attributes?.first { $0.key == key }?.value).map(Value.text) ?? .none
      }
      switch field {
      case "subscriberKey": return payload.subscriberKey.map(Value.text) ?? .none
      case "device_Token": return payload.deviceToken.map(Value.text) ?? .none
      case "push_Enabled": return payload.pushEnabled.map(Value.flag) ?? .none
      default: return .list(payload.tags ?? [])
      }
    }
    guard let device = context.device else { return .none }
    let state = device.state
    if subject.hasPrefix("attr.") {
      return state.record.attributes[String(subject.dropFirst("attr.".count))].map(Value.text)
        ?? .none
    }
    switch subject {
    case "pending": return .number(Double(state.pending.count))
    case "attempt": return .number(Double(state.scheduler.retry?.failures ?? 0))
    case "needsFix": return .flag(state.scheduler.retry?.needsFix ?? false)
    case "lastStatus":
      let last = context.events.last { $0.kind == .sent || $0.kind == .failed }
      switch last?.body {
      case .engine(.sent(_, _, let status, _)): return .number(Double(status))
      case .engine(.failed(_, _, let status, _, _, _, _)):
        return status.map { .number(Double($0)) } ?? .none
      default: return .none
      }
    case "contactKey": return state.record.contactKey.map(Value.text) ?? .none
    case "tags":
      return .list(device.settings.allTags(of: state.record))
    case "plan":
      switch device.plan {
      case .idle: return .text("idle")
      case .inFlight: return .text("sending")
      case .delayedForContactKey: return .text("delayed")
      case .blocked: return .text("blocked")
      case .due(_, let reason, _): return .text(reason.rawValue)
      }
    case "nextSend":
      if case .due(let at, _, _) = device.plan { return .instant(at.seconds) }
      return .none
    default: return .none
    }
  }

  func compare(_ actual: Value) -> Bool {
    let wanted = expected
    switch actual {
    case .list(let items):
      switch op {
      case .has: return items.contains(wanted)
      case .lacks: return !items.contains(wanted)
      default: return false
      }
    case .number(let number), .instant(let number):
      guard let target = DurationText.seconds(wanted) ?? Double(wanted) else { return false }
      switch op {
      case .equal: return abs(number - target) < 1e-9
      case .notEqual: return abs(number - target) >= 1e-9
      case .atLeast: return number >= target
      case .atMost: return number <= target
      case .more: return number > target
      case .less: return number < target
      case .has, .lacks: return false
      }
    case .text(let text):
      switch op {
      case .equal: return text == wanted
      case .notEqual: return text != wanted
      default: return false
      }
    case .flag(let flag):
      guard let target = InputRules.boolean(wanted) else { return false }
      return op == .equal ? flag == target : op == .notEqual ? flag != target : false
    case .none:
      let isNone = ["none", "null", "nil"].contains(wanted.lowercased())
      return op == .equal ? isNone : op == .notEqual ? !isNone : false
    }
  }
}
