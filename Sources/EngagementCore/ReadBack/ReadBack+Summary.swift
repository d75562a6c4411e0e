import RegistrationCore

extension ReadBack {
  /// The whole answer in a sentence, led by the outcome's word: what the tenant holds, what
  /// differs, and the cause when one is known (S5 for a name outside the table, R8.3 for a
  /// newer contact key).
  static func summarized(_ readBack: ReadBack, _ context: Context) -> String {
    opening(readBack.registrationID, at: readBack.registrationAt, asked: readBack.askedAt)
      + readBack.outcome.word + ": " + told(readBack, context)
  }

  private static func told(_ readBack: ReadBack, _ context: Context) -> String {
    let key = readBack.contactKey ?? ""
    let rejected =
      context.undefined.isEmpty
      ? nil
      : "processing rejects the whole registration for \(context.undefined.prefix(3).joined(separator: ", ")), not in the tenant's demographics (S5)"
    let unread =
      context.unread.prefix(2).joined(separator: "; ")
      + (context.unread.count > 2 ? "; and \(context.unread.count - 2) more" : "")
    if readBack.outcome == .notRead && !readBack.addressFound {
      return
        "the tenant answered for contact \(key), but RegScope could not read what could be this device's push address (\(unread)); nothing is said missing"
    }
    guard readBack.addressFound else {
      let others =
        context.otherPushAddresses > 0
        ? " (it holds \(context.otherPushAddresses) other push address\(context.otherPushAddresses == 1 ? "" : "es"))"
        : ""
      if let moved = context.movedTo {
        return
          "contact \(key) holds no push address for this device\(others): the newer #\(moved.id) moved it to contact \(moved.key) (R8.3)"
      }
      let why =
        rejected ?? "the tenant gives no reason: processing rejected it or has not filed it yet"
      return "contact \(key) holds no push address for this device\(others); \(why)"
    }
    let attributes = readBack.fields.filter { $0.kind == .attribute }
    // MobilePush's address status is the address's validity, never its opt-in.
    let status =
      readBack.addressStatus.map { " (address status \($0): its validity, not opt-in)" } ?? ""
    var parts = rejected.map { [$0] } ?? []
    parts.append(
      "contact \(key) holds this device's push address\(status)"
        + (rejected == nil ? "" : " from an earlier registration"))
    if attributes.isEmpty {
      parts[parts.count - 1] += "; no attributes were sent"
    } else if attributes.allSatisfy({ $0.verdict == .notRead }) {
      parts.append(
        "its attribute values came in a shape or under names RegScope does not read, so the \(attributes.count) attribute\(attributes.count == 1 ? " is" : "s are") not compared"
          + (unread.isEmpty ? "" : " (\(unread))")
      )
    } else {
      let held = attributes.count { $0.verdict == .heldAsSent }
      parts.append(
        held == attributes.count
          ? "all \(held) attribute\(held == 1 ? "" : "s") as sent"
          : "\(held) of \(attributes.count) attributes as sent")
      for field in attributes where field.verdict != .heldAsSent {
        parts.append(differs(field))
      }
      if attributes.contains(where: { $0.verdict == .notRead }), !unread.isEmpty {
        parts.append("not read of the values: \(unread)")
      }
    }
    return parts.prefix(12).joined(separator: "; ")
      + (parts.count > 12 ? "; and \(parts.count - 12) more" : "")
  }

  /// The few words a timeline row shows, led by the outcome's word; the summary says the
  /// rest.
  static func headline(_ readBack: ReadBack, _ context: Context) -> String {
    let key = readBack.contactKey ?? ""
    let id = "#\(readBack.registrationID)"
    let word = readBack.outcome.word
    let cause = context.undefined.first.map { " (S5: \($0))" } ?? ""
    guard readBack.addressFound else {
      if readBack.outcome == .notRead {
        return
          "tenant: \(id) \(word): the answer for contact \(key) has addresses RegScope cannot read"
      }
      if let moved = context.movedTo {
        return "tenant: \(id) \(word) to contact \(moved.key) by #\(moved.id), not under \(key)"
      }
      return "tenant: \(id) \(word) under contact \(key)\(cause)"
    }
    if !context.undefined.isEmpty {
      return "tenant: \(id) \(word), rejected\(cause); an earlier registration's values held"
    }
    let attributes = readBack.fields.filter { $0.kind == .attribute }
    let count = "\(attributes.count) attribute\(attributes.count == 1 ? "" : "s")"
    if !attributes.isEmpty && attributes.allSatisfy({ $0.verdict == .notRead }) {
      return
        "tenant: \(id) \(word): filed under contact \(key), its values in a shape RegScope does not read"
    }
    let held = attributes.count { $0.verdict == .heldAsSent }
    guard let first = attributes.first(where: { $0.verdict != .heldAsSent }) else {
      return "tenant: \(id) \(word) (contact \(key), \(count) as sent)"
    }
    return "tenant: \(id) \(word): \(held) of \(count) as sent; \(differs(first))"
  }

  /// Said of a value the tenant holds that no registration RegScope holds sent.
  static let sentByNone = "sent by none of this device's registrations RegScope holds"

  /// A value as a sentence quotes it (already escaped): at most 60 characters, then its
  /// length, so a value of 100 KB is not repeated whole.
  static func clipped(_ text: String?) -> String {
    let text = text ?? ""
    return text.count > 60 ? String(text.prefix(60)) + "…(\(text.count) chars)" : text
  }

  static func differs(_ field: Field) -> String {
    switch field.verdict {
    case .heldOther:
      let from =
        field.heldFrom.map { "sent by #\($0)" } ?? sentByNone
      return
        "\(field.name) held as \"\(clipped(field.held))\" (\(from)), not \"\(clipped(field.sent))\""
    case .notThere: return "\(field.name) not there (sent \"\(clipped(field.sent))\")"
    case .notArrived: return "\(field.name) \(Verdict.notArrived.word)"
    case .notRead: return "\(field.name) not read"
    case .heldAsSent: return "\(field.name) as sent"
    }
  }
}
