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
    let held = address?.values.map(HeldValues.init)
    // Values under none of the names sent are names RegScope does not match (the shape of
    // `valueSets` is not documented): not read, never "not held".
    if let held, !attributes.isEmpty,
      !attributes.contains(where: { held.value(of: $0.key) != nil })
    {
      address?.values = nil
    }
    let keyVerdict: Verdict =
      address != nil ? .heldAsSent : holding.addressNotRead ? .notRead : .notArrived
    var fields = [
      Field(
        kind: .contactKey, name: "contact key", sent: TerminalText.clipped(holding.contactKey),
        held: address == nil ? nil : TerminalText.clipped(holding.contactKey),
        verdict: keyVerdict)
    ]
    let senders = Senders(registrations.filter { $0.id != compared.id })
    for attribute in attributes {
      fields.append(
        field(
          attribute, address: address, held: address?.values == nil ? nil : held,
          addressNotRead: holding.addressNotRead, senders: senders, compared: compared))
    }
    var readBack = ReadBack(
      askedAt: askedAt.seconds, registrationID: compared.id,
      registrationAt: compared.receivedAt.seconds, window: window,
      contactKey: TerminalText.clipped(holding.contactKey), addressFound: address != nil,
      addressStatus: address?.status.map(TerminalText.escaped), fields: fields, problem: nil,
      outcome: .arrived, summary: "", headline: "")
    let moved = movedTo(after: compared, registrations: registrations)
    if address == nil, !holding.addressNotRead, let moved {
      readBack.fields[0].cause =
        "the newer #\(moved.id) moved the device to contact \(moved.key) (R8.3)"
    }
    let context = Context(
      undefined: ProcessingRules.undefinedAttributes(compared.payload, defined: defined)
        .map(TerminalText.escaped),
      movedTo: moved,
      otherPushAddresses: holding.otherPushAddresses,
      unread: address == nil ? holding.unread : address?.unreadValues ?? [])
    readBack.outcome = outcome(readBack, context)
    readBack.summary = summarized(readBack, context)
    readBack.headline = headline(readBack, context)
    return readBack
  }

  /// The tenant's values by name, indexed once: the exact name, else one that differs only
  /// in case (a read-back of thousands of values against thousands of names stays linear).
  struct HeldValues {
    let exact: [String: String]
    let folded: [String: String]

    init(_ values: [String: String]) {
      exact = values
      var folded: [String: String] = [:]
      // The first spelling in name order wins, so the choice does not depend on hashing.
      for (name, value) in values.sorted(by: { $0.key < $1.key }) {
        let key = name.lowercased()
        if folded[key] == nil { folded[key] = value }
      }
      self.folded = folded
    }

    func value(of name: String) -> String? { exact[name] ?? folded[name.lowercased()] }
  }

  /// Which of the device's other registrations sent which value of each attribute, newest
  /// first: read once, so finding the sender of a held value is a lookup, not a scan.
  struct Senders {
    private var byName: [String: [(id: Int, value: String)]] = [:]

    init(_ registrations: [ServerRegistration]) {
      for registration in registrations.sorted(by: { $0.id > $1.id }) {
        for attribute in registration.payload.attributes ?? [] {
          byName[attribute.key, default: []].append((registration.id, attribute.value))
        }
      }
    }

    /// The newest registration that sent `held` under `name`.
    func sender(of held: String, under name: String) -> Int? {
      byName[name]?.first { ReadBack.same(held: held, sent: $0.value) }?.id
    }
  }

  /// The outcome the fields and the context come to.
  static func outcome(_ readBack: ReadBack, _ context: Context) -> Outcome {
    guard readBack.addressFound else {
      if readBack.fields.first?.verdict == .notRead { return .notRead }
      return context.movedTo == nil ? .notArrived : .moved
    }
    if !context.undefined.isEmpty { return .notArrived }
    let attributes = readBack.fields.filter { $0.kind == .attribute }
    if attributes.contains(where: { $0.verdict == .heldOther || $0.verdict == .notThere }) {
      return .notAsSent
    }
    if attributes.contains(where: { $0.verdict == .notRead }) { return .notRead }
    return .arrived
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
      contactKey: contactKey.map { TerminalText.clipped($0) }, addressFound: false,
      addressStatus: nil,
      fields: [], problem: problem,
      outcome: problem.hasPrefix("not asked") ? .notAsked : .noAnswer,
      summary: opening(compared.id, at: compared.receivedAt.seconds, asked: askedAt.seconds)
        + (problem.hasPrefix("not asked") ? "" : Outcome.noAnswer.word + ": ") + problem,
      headline: problem == noContactKey
        ? "tenant: #\(compared.id) not asked: it had no contact key (S3)"
        : problem.hasPrefix("not asked")
          ? "tenant: #\(compared.id) " + problem
          : "tenant: #\(compared.id) no answer: " + problem)
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
    /// What of the answer could not be read (escaped excerpts), for the summary.
    var unread: [String] = []
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
        return (newer.id, TerminalText.clipped(other))
      }.first
  }

  /// The tenant's value is the one sent: as sent, trimmed, or cut as the server keeps a value
  /// past 4 KB (`sent` is the kept form).
  static func same(held: String, sent: String) -> Bool {
    held == sent || InputRules.trimmed(held) == InputRules.trimmed(sent)
      || ProcessingRules.kept(held) == sent
  }

  private static func field(
    _ attribute: RegistrationPayload.Attribute, address: TenantHolding.Address?,
    held values: HeldValues?, addressNotRead: Bool, senders: Senders,
    compared: ServerRegistration
  ) -> Field {
    let sent = attribute.value
    var field = Field(
      kind: .attribute, name: TerminalText.escaped(attribute.key),
      sent: TerminalText.escaped(sent), held: nil,
      verdict: addressNotRead ? .notRead : .notArrived)
    guard let address else { return field }
    guard let values else {
      field.verdict = .notRead
      return field
    }
    let held = values.value(of: attribute.key)
    field.held = held.map { TerminalText.escaped(ProcessingRules.kept($0)) }
    guard let held else {
      // A cleared value rides along once as "" (R2.6): nothing held is what was sent. A name
      // that may be among the values not read is not read, never "not there".
      field.verdict =
        sent.isEmpty ? .heldAsSent : address.unreadValues.isEmpty ? .notThere : .notRead
      return field
    }
    if same(held: held, sent: sent) {
      field.verdict = .heldAsSent
      return field
    }
    let sender = senders.sender(of: held, under: attribute.key)
    field.heldFrom = sender
    // A newer registration's value landed after the one compared: it is as sent.
    field.verdict = (sender ?? 0) > compared.id ? .heldAsSent : .heldOther
    return field
  }

  /// "tenant read-back for #5 (sent 13:21:40 UTC, asked 65 s after its 2xx): ": the
  /// registration by its time too (the timeline's rows carry no numbers), and the wait that
  /// was, not the setting (the minute's lookups and a 429 can make it longer).
  static func opening(_ id: Int, at: Double, asked: Double) -> String {
    "tenant read-back for #\(id) (sent \(FieldExplanation.timeOfDay(at)), asked \(DurationText.describe((asked - at).rounded())) after its 2xx): "
  }
}
