import RegistrationCore

extension ReadBack {
  /// What the tenant holds (`holding`) beside what `compared` sent: the contact key (the
  /// address under it or not) and each attribute by its name. `registrations` are the
  /// device's others the server holds, to say which one sent a value the tenant holds
  /// instead (a newer one's value is as sent: it landed after); `defined` is the demographics
  /// table in use, so S5 is named only when the registration carried a name outside it.
  public static func compare(
    _ compared: ServerRegistration, holding: TenantHolding, registrations: [ServerRegistration],
    askedAt: Instant, window: Double, defined: Set<String>?
  ) -> ReadBack {
    let attributes = compared.payload.attributes ?? []
    var address = holding.address
    // Values under none of the names sent are names RegScope does not match (the shape of
    // `valueSets` is not documented): not read, never "not held".
    if let values = address?.values, !attributes.isEmpty,
      !attributes.contains(where: { value(of: $0.key, in: values) != nil })
    {
      address?.values = nil
    }
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
    let moved = movedTo(after: compared, registrations: registrations)
    if address == nil, let moved {
      readBack.fields[0].cause =
        "the newer #\(moved.id) moved the device to contact \(moved.key) (R8.3)"
    }
    let context = Context(
      undefined: ProcessingRules.undefinedAttributes(compared.payload, defined: defined)
        .map(TerminalText.escaped),
      movedTo: moved,
      otherPushAddresses: holding.otherPushAddresses)
    readBack.summary = summarized(readBack, context)
    readBack.headline = headline(readBack, context)
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
      summary: opening(compared.id, at: compared.receivedAt.seconds, asked: askedAt.seconds)
        + problem,
      headline: problem == noContactKey
        ? "tenant: not asked, #\(compared.id) had no contact key (S3)"
        : "tenant: no answer for #\(compared.id): " + problem)
  }

  /// Why a registration without a contact key cannot be looked up.
  public static let noContactKey =
    "not asked: the registration carried no contact key, so the tenant filed the device under a key it made up (S3), which RegScope cannot know; the address search goes by contact key"

  /// What the summary and the headline say besides the fields.
  struct Context {
    /// The compared registration's names outside the demographics table (escaped).
    var undefined: [String]
    /// A newer registration of the device that carried another contact key: (its id, the key).
    var movedTo: (id: Int, key: String)?
    var otherPushAddresses: Int
  }

  private static func movedTo(
    after compared: ServerRegistration, registrations: [ServerRegistration]
  )
    -> (id: Int, key: String)?
  {
    let key = compared.payload.subscriberKey.map(InputRules.trimmed)
    return registrations.filter { $0.id > compared.id }.sorted { $0.id > $1.id }
      .lazy.compactMap { newer -> (id: Int, key: String)? in
        guard let other = newer.payload.subscriberKey.map(InputRules.trimmed), !other.isEmpty,
          other != key
        else { return nil }
        return (newer.id, TerminalText.escaped(other))
      }.first
  }

  /// The value under `name`: the exact name, else one that differs only in case.
  static func value(of name: String, in values: [String: String]) -> String? {
    values[name] ?? values.first { $0.key.lowercased() == name.lowercased() }?.value
  }

  /// The tenant's value is the one sent: as sent, trimmed, or cut as the server keeps a value
  /// past 4 KB (`sent` is the kept form).
  static func same(held: String, sent: String) -> Bool {
    held == sent || InputRules.trimmed(held) == InputRules.trimmed(sent)
      || ProcessingRules.kept(held) == sent
  }

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
    let held = value(of: attribute.key, in: values)
    field.held = held.map { TerminalText.escaped(ProcessingRules.kept($0)) }
    guard let held else {
      // A cleared value rides along once as "" (R2.6): nothing held is what was sent.
      field.verdict = sent.isEmpty ? .heldAsSent : .notThere
      return field
    }
    if same(held: held, sent: sent) {
      field.verdict = .heldAsSent
      return field
    }
    let sender =
      registrations
      .filter { $0.id != compared.id }
      .sorted { $0.id > $1.id }
      .first {
        ($0.payload.attributes ?? []).contains {
          $0.key == attribute.key && same(held: held, sent: $0.value)
        }
      }
    field.heldFrom = sender?.id
    // A newer registration's value landed after the one compared: it is as sent.
    field.verdict = (sender?.id ?? 0) > compared.id ? .heldAsSent : .heldOther
    return field
  }

  /// "tenant read-back for #5 (sent 13:21:40 UTC, asked 65 s after its 2xx): ": the
  /// registration by its time too (the timeline's rows carry no numbers), and the wait that
  /// was, not the setting (the minute's lookups and a 429 can make it longer).
  static func opening(_ id: Int, at: Double, asked: Double) -> String {
    "tenant read-back for #\(id) (sent \(FieldExplanation.timeOfDay(at)), asked \(DurationText.describe((asked - at).rounded())) after its 2xx): "
  }
}
