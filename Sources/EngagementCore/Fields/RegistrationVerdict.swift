import RegistrationCore

/// What processing did (or, under today's table, will do) with one registration, worked out
/// once and asked by each of its fields: the undefined attributes are a set to look a field up
/// in, and named at most `named` at a time, so a registration of 8,000 undefined attributes
/// makes a story linear in what it carried, not its square.
struct RegistrationVerdict {
  /// Undefined attributes named in a field's reason and fix; the rest are counted.
  static let named = 5

  private enum Kind {
    case waiting, accepted
    case rejected(reason: String)
    case undefined(rejectedAlready: Bool)
  }

  private let kind: Kind
  private let waitingWhy: String
  /// The first `named` undefined attributes, escaped, and how many there are in all.
  private let listed: [String]
  private let undefinedLowercased: Set<String>
  let undefinedCount: Int?

  init(_ registration: ServerRegistration, facts: FieldFacts, stamp: (Instant) -> String) {
    waitingWhy = "received (201); processing at \(stamp(registration.processAt)) (S2)"
    var undefined: [String] = []
    switch registration.status {
    case .processed:
      kind = .accepted
    case .received:
      // Under today's table processing will refuse it: said now, not in five minutes.
      if case .undefinedAttributes(let names)? = ProcessingRules.refusal(
        registration.payload, definedAttributes: facts.definedAttributes)
      {
        undefined = names
        kind = .undefined(rejectedAlready: false)
      } else {
        kind = .waiting
      }
    case .rejected:
      if (registration.reason ?? "").contains("not defined in the demographics table"),
        case .undefinedAttributes(let names)? = ProcessingRules.refusal(
          registration.payload, definedAttributes: facts.definedAttributes)
      {
        undefined = names
        kind = .undefined(rejectedAlready: true)
      } else {
        kind = .rejected(reason: TerminalText.escaped(registration.reason ?? "no reason kept"))
      }
    }
    listed = undefined.prefix(Self.named).map(TerminalText.escaped)
    undefinedLowercased = Set(undefined.map { $0.lowercased() })
    undefinedCount = undefined.count > Self.named ? undefined.count : nil
  }

  /// The outcome for the field `attribute` (nil: a tag or the contact key), why, and the
  /// undefined attributes to name in its fix.
  func outcome(attribute: String?) -> (FieldStory.Event.Outcome, String?, [String]?) {
    switch kind {
    case .accepted: return (.accepted, nil, nil)
    case .waiting: return (.waiting, waitingWhy, nil)
    case .rejected(let reason): return (.rejected, "the registration was rejected: \(reason)", nil)
    case .undefined(let rejectedAlready):
      let whole = wholeRegistration(attribute: attribute)
      return rejectedAlready
        ? (.rejected, "rejected " + whole, listed)
        : (.waiting, waitingWhy + " will reject it " + whole, listed)
    }
  }

  /// "with its whole registration: Plan is not in the demographics table (S5)", or, for
  /// another field, "... because Plan is not ...".
  private func wholeRegistration(attribute: String?) -> String {
    if let attribute, undefinedLowercased.contains(attribute.lowercased()) {
      return
        "with its whole registration: \(TerminalText.escaped(attribute)) is not in the demographics table (S5)"
    }
    let total = undefinedCount ?? listed.count
    return
      "with its whole registration because \(Self.list(listed, total: total)) \(total == 1 ? "is" : "are") not in the demographics table (S5)"
  }

  /// "Plan, Tier", or "A, B, C, D, E and 7,995 more".
  static func list(_ names: [String], total: Int) -> String {
    let shown = names.joined(separator: ", ")
    return total > names.count
      ? "\(shown) and \(NumberText.grouped(total - names.count)) more" : shown
  }
}
