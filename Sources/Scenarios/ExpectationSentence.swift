import RegistrationCore
import SessionValues

extension Expectation {
  /// What the check proves, in words a marketer reads: `server.distinctContacts == 1` is "the
  /// server holds 1 distinct contact", `lastSent.tags has sports` "the last registration
  /// carried tag sports". Nil for a form it has no words for (the demo then shows the step's
  /// `say:`). It states the claim; whether it held is the verdict's to say.
  public var sentence: String? { ExpectationSentence.make(self) }
}

/// The words for each expectation form (`Expectation.subjects`).
enum ExpectationSentence {
  static func make(_ check: Expectation) -> String? {
    let subject = check.subject
    if let noun = countNouns[subject] { return count(check, noun) }
    if subject.hasPrefix("warnings.") {
      let code = String(subject.dropFirst("warnings.".count))
      let about = warningClauses[code] ?? "of \(code)"
      return count(check, ("warning \(about)", "warnings \(about)"))
    }
    if subject.hasPrefix("server.") {
      return server(check, String(subject.dropFirst("server.".count)))
    }
    if subject.hasPrefix("lastSent.") {
      return lastSent(check, String(subject.dropFirst("lastSent.".count)))
    }
    if subject.hasPrefix("attr.") {
      let key = quoted(String(subject.dropFirst("attr.".count)))
      return value(
        check, is: "attribute \(key) is", none: "attribute \(key) is not set",
        some: "attribute \(key) is set")
    }
    return device(check)
  }

  // MARK: Counts

  /// Event counts, as a noun and its plural: `sent == 2` is "2 registrations sent".
  static let countNouns: [String: (one: String, many: String)] = [
    "launched": ("app launch", "app launches"),
    "edited": ("edit made", "edits made"),
    "inputRejected": ("edit refused", "edits refused"),
    "warning": ("warning from the SDK", "warnings from the SDK"),
    "scheduled": ("send scheduled", "sends scheduled"),
    "delayed": (
      "registration held back until a contact key is set",
      "registrations held back until a contact key is set"
    ),
    "sending": ("send started", "sends started"),
    "sent": ("registration sent", "registrations sent"),
    "failed": ("send failed", "sends failed"),
    "sendSkipped": ("send skipped: nothing had changed", "sends skipped: nothing had changed"),
    "serverReceived": (
      "registration received by the server", "registrations received by the server"
    ),
    "serverProcessed": (
      "registration processed by the server", "registrations processed by the server"
    ),
    "orphaned": ("contact orphaned", "contacts orphaned"),
    "pending": ("change waiting to be sent", "changes waiting to be sent"),
    "attempt": ("failed try in a row", "failed tries in a row"),
  ]

  /// What each warning code warns of, after "warning".
  static let warningClauses: [String: String] = [
    WarningCode.orphanRisk.rawValue: "that a contact will be orphaned",
    WarningCode.genericContactKey.rawValue: "that the contact key is generic",
    WarningCode.backgroundEdit.rawValue: "of an edit made in the background",
    WarningCode.undefinedAttribute.rawValue: "of an attribute the server does not define",
    WarningCode.missingRequired.rawValue: "of a required field missing",
    WarningCode.reservedAttribute.rawValue: "of an attribute named with a reserved word",
  ]

  /// "2 registrations sent", "no contacts orphaned", "at least 3 sends failed".
  static func count(_ check: Expectation, _ noun: (one: String, many: String)) -> String? {
    let number = check.expected
    let one = number == "1"
    let amount: String
    switch check.op {
    case .equal: amount = number == "0" ? "no" : number
    case .notEqual: amount = "other than \(number)"
    case .atLeast: amount = "at least \(number)"
    case .atMost: amount = "at most \(number)"
    case .more: amount = "more than \(number)"
    case .less: amount = "fewer than \(number)"
    case .has, .lacks: return nil
    }
    return "\(amount) \(one ? noun.one : noun.many)"
  }

  // MARK: The server

  static func server(_ check: Expectation, _ count: String) -> String? {
    let nouns: [String: (one: String, many: String, sentence: (String) -> String)] = [
      "distinctContacts": ("distinct contact", "distinct contacts", { "the server holds \($0)" }),
      "orphanedContacts": ("orphaned contact", "orphaned contacts", { "the server holds \($0)" }),
      "madeUpContacts": (
        "contact it invented", "contacts it invented", { "the server holds \($0)" }
      ),
      "devices": ("device", "devices", { "the server knows \($0)" }),
      "activeDevices": ("active device", "active devices", { "the server holds \($0)" }),
      "pending": (
        "registration waiting for processing", "registrations waiting for processing",
        { "the server has \($0)" }
      ),
      "processed": ("registration", "registrations", { "processing accepted \($0)" }),
      "rejected": ("registration", "registrations", { "processing rejected \($0)" }),
      "received": ("registration", "registrations", { "the server received \($0)" }),
    ]
    guard let noun = nouns[count], let amount = self.count(check, (noun.one, noun.many)) else {
      return nil
    }
    return noun.sentence(amount)
  }

  // MARK: The last registration sent

  static func lastSent(_ check: Expectation, _ field: String) -> String? {
    let carried = "the last registration carried"
    if field.hasPrefix("attr.") {
      let key = quoted(String(field.dropFirst("attr.".count)))
      return value(
        check, is: "\(carried) attribute \(key) =", none: "\(carried) no attribute \(key)",
        some: "\(carried) attribute \(key)",
        isNot: "the last registration did not carry attribute \(key) =")
    }
    switch field {
    case "subscriberKey":
      return value(
        check, is: "\(carried) contact key", none: "\(carried) no contact key",
        some: "\(carried) a contact key", isNot: "the last registration did not carry contact key")
    case "device_Token":
      return value(
        check, is: "\(carried) push token", none: "\(carried) no push token",
        some: "\(carried) a push token", isNot: "the last registration did not carry push token")
    case "push_Enabled":
      return flag(
        check, yes: "the last registration said push is enabled",
        no: "the last registration said push is disabled")
    case "tags":
      return membership(
        check, has: "\(carried) tag", lacks: "the last registration did not carry tag")
    default: return nil
    }
  }

  // MARK: The device

  static func device(_ check: Expectation) -> String? {
    switch check.subject {
    case "pending", "attempt": return count(check, countNouns[check.subject] ?? ("", ""))
    case "needsFix":
      return flag(
        check, yes: "the SDK stopped retrying until the app is fixed",
        no: "the SDK is not waiting for a fix")
    case "lastStatus":
      if isNone(check.expected) {
        return check.op == .notEqual ? "the server has answered" : "no answer from the server yet"
      }
      return compared(check, "the last answer was")
    case "contactKey":
      return value(
        check, is: "the contact key is", none: "no contact key is set",
        some: "a contact key is set", isNot: "the contact key is not")
    case "tags":
      return membership(check, has: "the device has tag", lacks: "the device does not have tag")
    case "plan": return plan(check)
    case "nextSend":
      if isNone(check.expected) {
        return check.op == .notEqual ? "a send is due" : "no send is due"
      }
      let at = DurationText.seconds(check.expected) ?? Double(check.expected)
      let time = at.map { Timestamp.format(Instant($0)) } ?? check.expected
      switch check.op {
      case .equal: return "the next send is due at \(time)"
      case .notEqual: return "the next send is not due at \(time)"
      case .atLeast: return "the next send is due at \(time) or later"
      case .atMost: return "the next send is due at \(time) or earlier"
      case .more: return "the next send is due after \(time)"
      case .less: return "the next send is due before \(time)"
      case .has, .lacks: return nil
      }
    default: return nil
    }
  }

  /// `plan == X`: what the SDK is doing, and its opposite.
  static func plan(_ check: Expectation) -> String? {
    let states: [String: (is: String, isNot: String)] = [
      "idle": ("nothing is left to send", "something is still to send"),
      "sending": ("a send is on the wire", "no send is on the wire"),
      "delayed": (
        "sending waits for a contact key", "sending does not wait for a contact key"
      ),
      "blocked": ("sending is blocked until the app is fixed", "sending is not blocked"),
      "initial": ("the first registration is due", "the first registration is not due"),
      "change": ("a change is due to be sent", "no change is due to be sent"),
      "retry": ("a retry is due", "no retry is due"),
    ]
    guard let state = states[check.expected] else { return nil }
    switch check.op {
    case .equal: return state.is
    case .notEqual: return state.isNot
    default: return nil
    }
  }

  // MARK: Shapes shared by several names

  /// A text value: `is "X"`, `is not "X"`, or, for `none`, absent (`none`) or present
  /// (`some`).
  static func value(
    _ check: Expectation, is said: String, none: String, some: String, isNot: String? = nil
  ) -> String? {
    switch (check.op, isNone(check.expected)) {
    case (.equal, true): return none
    case (.notEqual, true): return some
    case (.equal, false): return "\(said) \(text(check.expected))"
    case (.notEqual, false): return "\(isNot ?? said + " not") \(text(check.expected))"
    default: return nil
    }
  }

  static func flag(_ check: Expectation, yes: String, no: String) -> String? {
    guard let wanted = InputRules.boolean(check.expected) else { return nil }
    switch check.op {
    case .equal: return wanted ? yes : no
    case .notEqual: return wanted ? no : yes
    default: return nil
    }
  }

  static func membership(_ check: Expectation, has: String, lacks: String) -> String? {
    switch check.op {
    case .has: return "\(has) \(quoted(check.expected))"
    case .lacks: return "\(lacks) \(quoted(check.expected))"
    default: return nil
    }
  }

  /// A number compared: "the last answer was 201", "... was at least 500".
  static func compared(_ check: Expectation, _ said: String) -> String? {
    let value = check.expected
    switch check.op {
    case .equal: return "\(said) \(value)"
    case .notEqual: return "\(said) not \(value)"
    case .atLeast: return "\(said) at least \(value)"
    case .atMost: return "\(said) at most \(value)"
    case .more: return "\(said) above \(value)"
    case .less: return "\(said) below \(value)"
    case .has, .lacks: return nil
    }
  }

  static func isNone(_ value: String) -> Bool {
    ["none", "null", "nil"].contains(value.lowercased())
  }

  /// A name (an attribute's key, a tag) as the scenario wrote it: bare when it is one word.
  static func quoted(_ name: String) -> String { CommandWords.quote(name) }

  /// A value, in quotes as the panes show values (`CODE = "FREE99"`).
  static func text(_ value: String) -> String { "\"\(value)\"" }
}
