import RegistrationCore

extension ReadBack {
  /// What the tenant holds (`holding`) beside what `compared` sent: the contact key (the
  /// address under it or not) and each attribute by its name. `registrations` are the
  /// device's others the server holds, to say which one sent a value the tenant holds
  /// instead; `defined` is the demographics table in use, so a missing address names S5 only
  /// when the registration carried a name outside it.
  public static func compare(
    _ compared: ServerRegistration, holding: TenantHolding, registrations: [ServerRegistration],
    askedAt: Instant, window: Double, defined: Set<String>?
  ) -> ReadBack {
    let attributes = compared.payload.attributes ?? []
    let address = holding.address
    var fields = [
      Field(
        kind: .contactKey, name: "contact key", sent: TerminalText.escaped(holding.contactKey),
        held: address == nil ? nil : TerminalText.escaped(holding.contactKey),
        verdict: address == nil ? .notThere : .heldAsSent)
    ]
    for attribute in attributes {
      fields.append(
        field(attribute, address: address, registrations: registrations, compared: compared))
    }
    var readBack = ReadBack(
      askedAt: askedAt.seconds, registrationID: compared.id,
      registrationAt: compared.receivedAt.seconds, window: window,
      contactKey: TerminalText.escaped(holding.contactKey), addressFound: address != nil,
      addressStatus: address?.status.map(TerminalText.escaped), fields: fields, problem: nil,
      summary: "", headline: "")
    let undefined = ProcessingRules.undefinedAttributes(compared.payload, defined: defined)
    readBack.summary = summarized(readBack, holding: holding, undefined: undefined)
    readBack.headline = headline(readBack, undefined: undefined)
    return readBack
  }

  /// The tenant not asked (no contact key to search by) or unable to answer: said on the
  /// timeline all the same, so "nothing came back" is never silence.
  public static func unanswered(
    _ compared: ServerRegistration, askedAt: Instant, window: Double, contactKey: String?,
    problem: String
  ) -> ReadBack {
    ReadBack(
      askedAt: askedAt.seconds, registrationID: compared.id,
      registrationAt: compared.receivedAt.seconds, window: window,
      contactKey: contactKey.map(TerminalText.escaped), addressFound: false, addressStatus: nil,
      fields: [], problem: problem,
      summary: "tenant read-back for #\(compared.id) (\(waited(window)) after its 2xx): \(problem)",
      headline: problem == noContactKey
        ? "tenant: not asked, #\(compared.id) had no contact key (S3)"
        : "tenant: no answer for #\(compared.id): " + problem)
  }

  /// The few words a timeline row shows; the summary says the rest.
  private static func headline(_ readBack: ReadBack, undefined: [String]) -> String {
    let key = readBack.contactKey ?? ""
    let id = "#\(readBack.registrationID)"
    guard readBack.addressFound else {
      let cause = undefined.first.map { " (S5: \(TerminalText.escaped($0)))" } ?? ""
      return "tenant: \(id) NOT ARRIVED under contact \(key)\(cause)"
    }
    let attributes = readBack.fields.filter { $0.kind == .attribute }
    if !attributes.isEmpty && attributes.allSatisfy({ $0.verdict == .notRead }) {
      return "tenant: \(id) filed under contact \(key); its values not read"
    }
    let held = attributes.count { $0.verdict == .heldAsSent }
    let count = "\(attributes.count) attribute\(attributes.count == 1 ? "" : "s")"
    guard let first = attributes.first(where: { $0.verdict != .heldAsSent }) else {
      return "tenant: \(id) held as sent (contact \(key), \(count))"
    }
    return "tenant: \(id) \(held) of \(count) as sent; \(differs(first))"
  }

  /// Why a registration without a contact key cannot be looked up.
  public static let noContactKey =
    "not asked: the registration carried no contact key, so the tenant filed the device under a key it made up (S3), which RegScope cannot know; the address search goes by contact key"

  private static func field(
    _ attribute: RegistrationPayload.Attribute, address: TenantHolding.Address?,
    registrations: [ServerRegistration], compared: ServerRegistration
  ) -> Field {
    let sent = attribute.value
    var field = Field(
      kind: .attribute, name: TerminalText.escaped(attribute.key),
      sent: TerminalText.escaped(sent), held: nil, verdict: .notThere)
    guard let address else { return field }
    guard let values = address.values else {
      field.verdict = .notRead
      return field
    }
    let held =
      values[attribute.key]
      ?? values.first { $0.key.lowercased() == attribute.key.lowercased() }?.value
    field.held = held.map(TerminalText.escaped)
    switch held {
    case nil:
      // A cleared value rides along once as "" (R2.6): nothing held is what was sent.
      field.verdict = sent.isEmpty ? .heldAsSent : .notThere
    case let held? where held == sent || held == InputRules.trimmed(sent):
      field.verdict = .heldAsSent
    case let held?:
      field.verdict = .heldOther
      field.heldFrom =
        registrations
        .filter { $0.id != compared.id }
        .sorted { $0.id > $1.id }
        .first {
          ($0.payload.attributes ?? []).contains { $0.key == attribute.key && $0.value == held }
        }?
        .id
    }
    return field
  }

  static func waited(_ window: Double) -> String {
    DurationText.describe(window)
  }

  private static func summarized(_ readBack: ReadBack, holding: TenantHolding, undefined: [String])
    -> String
  {
    let head =
      "tenant read-back for #\(readBack.registrationID) (\(waited(readBack.window)) after its 2xx): "
    let key = readBack.contactKey ?? ""
    guard holding.address != nil else {
      let others =
        holding.otherPushAddresses > 0
        ? " (it holds \(holding.otherPushAddresses) other push address\(holding.otherPushAddresses == 1 ? "" : "es"))"
        : ""
      let why =
        undefined.isEmpty
        ? "the tenant gives no reason: processing rejected it or has not filed it yet"
        : "processing rejects the whole registration for \(undefined.prefix(3).map(TerminalText.escaped).joined(separator: ", ")), not in the tenant's demographics (S5)"
      return head
        + "not arrived: contact \(key) holds no push address for this device\(others); \(why)"
    }
    let attributes = readBack.fields.filter { $0.kind == .attribute }
    let status = readBack.addressStatus.map { " (status \($0))" } ?? ""
    var parts = ["contact \(key) holds this device's push address\(status)"]
    if attributes.isEmpty {
      parts[0] += "; no attributes were sent"
    } else if attributes.allSatisfy({ $0.verdict == .notRead }) {
      parts.append(
        "its attribute values came in a shape RegScope does not read, so the \(attributes.count) attribute\(attributes.count == 1 ? " is" : "s are") not compared"
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
    }
    return head + parts.prefix(12).joined(separator: "; ")
      + (parts.count > 12 ? "; and \(parts.count - 12) more" : "")
  }

  private static func differs(_ field: Field) -> String {
    switch field.verdict {
    case .heldOther:
      let from =
        field.heldFrom.map { "sent by #\($0)" }
        ?? "sent by none of this device's registrations RegScope holds"
      return "\(field.name) held as \"\(field.held ?? "")\" (\(from)), not \"\(field.sent ?? "")\""
    case .notThere: return "\(field.name) not held (sent \"\(field.sent ?? "")\")"
    case .notRead: return "\(field.name) not read"
    case .heldAsSent: return "\(field.name) as sent"
    }
  }
}
