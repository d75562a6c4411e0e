import RegistrationCore

/// "Why didn't my attribute arrive?": for one device, every attribute, tag and the contact key,
/// each value the app sent and when, in which registration, what the server did with it, what
/// the contact holds now, and what is still waiting. Built from what the server holds (its
/// window of registrations and its devices), so it answers the question the server can.
public struct DeviceFieldStories: Sendable, Encodable {
  public var deviceID: String
  /// The registrations of this device the story is read from (the server keeps a window).
  public var registrationsRead: Int
  /// Of those, the ones processing rejected (S5, S6): none, and nothing waits, is the only
  /// case the answer may say that everything arrived.
  public var registrationsRejected = 0
  /// The contact the device belongs to now, nil before processing made one.
  public var contactKey: String?
  public var fields: [FieldStory]
  /// The earliest this device's SDK could send a change made now (the throttle window).
  public var nextSend: String?
  /// What the watch found of the device: its violations and warnings, failed sends and
  /// refusals; nil where no watch saw it.
  public var judgement: DeviceJudgement? = nil
  /// The tenant's newest answer to "did it arrive?" (relayed with `--tenant`); nil when it
  /// was not asked.
  public var readBack: ReadBack? = nil
  /// What a fix may recommend for this device (its SDK's reserved names, the tenant's table):
  /// not sent, only read by the explanation.
  public var fixContext = FieldFixContext()

  enum CodingKeys: String, CodingKey {
    case deviceID, registrationsRead, registrationsRejected, contactKey, fields, nextSend
    case judgement, readBack
  }

  /// Each field's line of the newest read-back, put beside the field's story.
  public mutating func attach(_ readBack: ReadBack?) {
    self.readBack = readBack
    guard let readBack, readBack.problem == nil else { return }
    // Indexed once: a device that sent thousands of attributes is not matched pairwise.
    var compared: [String: ReadBack.Field] = [:]
    for field in readBack.fields where compared[field.kind.rawValue + " " + field.name] == nil {
      compared[field.kind.rawValue + " " + field.name] = field
    }
    for index in fields.indices {
      fields[index].tenant = compared[fields[index].id].map {
        FieldStory.TenantCheck(
          askedAt: readBack.askedAt, field: $0, addressFound: readBack.addressFound)
      }
    }
  }
}

public struct FieldStory: Sendable, Encodable {
  public enum Kind: String, Sendable, Encodable {
    case attribute, tag, contactKey
  }

  /// One value of the field as a registration carried it, and what became of it.
  public struct Event: Sendable, Encodable {
    public enum Outcome: String, Sendable, Encodable {
      /// Processing took it (S2).
      case accepted
      /// Processing rejected the registration that carried it (S5, S6).
      case rejected
      /// Received (201), not processed yet.
      case waiting
    }
    public var at: Double
    public var registrationID: Int
    /// The value sent: an attribute's (empty: cleared), `added` or `removed` for a tag, the
    /// contact key (nil: sent without one). For an attribute no longer sent: nil.
    public var value: String?
    public var outcome: Outcome
    /// Why, when it was not simply accepted.
    public var why: String?
    /// The attributes not in the demographics table that got the registration rejected (S5):
    /// the first few (`RegistrationVerdict.named`).
    public var undefinedAttributes: [String]?
    /// How many there are in all, when more than those named.
    public var undefinedCount: Int? = nil
  }

  public var kind: Kind
  /// The attribute's key, the tag, or "contact key".
  public var name: String
  public var events: [Event]
  /// What the contact holds now, as processing left it; nil when it holds nothing for it.
  public var holds: String?
  /// Things worth knowing that are not an event: a reserved word, another device of the
  /// contact that differs, an orphaned contact.
  public var notes: [String]
  /// The contact key story only: the contact `holds` names is one the server made up for a
  /// device sent without a key (S3), not a contact key the app set.
  public var madeUp = false
  /// What the tenant held of this field when it was last asked (`ReadBack`).
  public var tenant: TenantCheck? = nil

  /// A field as the tenant's read-back found it.
  public struct TenantCheck: Sendable, Encodable {
    public var askedAt: Double
    public var verdict: ReadBack.Verdict
    public var sent: String?
    public var held: String?
    /// With `heldOther`: the registration that sent the held value.
    public var heldFrom: Int?
    /// The known cause when it is not held.
    public var cause: String?
    /// Whether the tenant holds the device's push address at all.
    public var addressFound: Bool
    /// The verdict's one name, as every place says it.
    public var word: String

    init(askedAt: Double, field: ReadBack.Field, addressFound: Bool) {
      self.askedAt = askedAt
      self.addressFound = addressFound
      verdict = field.verdict
      word =
        field.cause != nil && field.verdict == .notArrived
        ? ReadBack.Outcome.moved.word : field.verdict.word
      sent = field.sent
      held = field.held
      heldFrom = field.heldFrom
      cause = field.cause
    }
  }

  /// The field among a device's: its kind and name ("attribute FirstName").
  public var id: String { kind.rawValue + " " + name }

  /// The newest event.
  public var latest: Event? { events.last }
}

/// What the server knows that the story needs besides the registrations.
public struct FieldFacts: Sendable {
  public var device: ServerDevice?
  /// The contact's other devices, as processing left them.
  public var otherDevices: [ServerDevice]
  /// Contacts orphaned, by key.
  public var orphaned: Set<String>
  public var definedAttributes: Set<String>?
  public var profile: SDKProfile
  public var nextSend: NextSend?
  /// The device's contact is one the server made up (S3): no contact key arrived.
  public var contactMadeUp = false
  /// The tenant's attribute set in use (`--tenant`), nil with a local table.
  public var demographicsSet: String? = nil

  public init(
    device: ServerDevice?, otherDevices: [ServerDevice], orphaned: Set<String>,
    definedAttributes: Set<String>?, profile: SDKProfile, nextSend: NextSend?
  ) {
    self.device = device
    self.otherDevices = otherDevices
    self.orphaned = orphaned
    self.definedAttributes = definedAttributes
    self.profile = profile
    self.nextSend = nextSend
  }
}

/// The fields API's answer within a byte budget (docs/behaviour.md): at most `fieldsSent`
/// fields, each with its newest `eventsSent` events, the rest counted. A device that sent
/// thousands of attributes is answered in megabytes, not gigabytes; the story in memory (and
/// the explanation told from it) keeps every field.
extension DeviceFieldStories {
  public static let fieldsSent = 1_000
  public static let eventsSent = 20

  private enum Keys: String, CodingKey {
    case deviceID, registrationsRead, registrationsRejected, contactKey, fields, nextSend
    case judgement, fieldsOmitted, readBack
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(deviceID, forKey: .deviceID)
    try container.encode(registrationsRead, forKey: .registrationsRead)
    try container.encode(registrationsRejected, forKey: .registrationsRejected)
    try container.encodeIfPresent(contactKey, forKey: .contactKey)
    try container.encodeIfPresent(nextSend, forKey: .nextSend)
    try container.encodeIfPresent(judgement, forKey: .judgement)
    try container.encodeIfPresent(readBack?.brief, forKey: .readBack)
    try container.encode(fields.prefix(Self.fieldsSent).map(SentStory.init), forKey: .fields)
    if fields.count > Self.fieldsSent {
      try container.encode(fields.count - Self.fieldsSent, forKey: .fieldsOmitted)
    }
  }

  /// A field as the API sends it: its newest events, and how many older ones were left out.
  private struct SentStory: Encodable {
    var kind: FieldStory.Kind
    var name: String
    var events: [FieldStory.Event]
    var eventsOmitted: Int?
    var holds: String?
    var notes: [String]
    var madeUp: Bool
    var tenant: FieldStory.TenantCheck?

    init(_ story: FieldStory) {
      kind = story.kind
      name = story.name
      events = Array(story.events.suffix(DeviceFieldStories.eventsSent))
      eventsOmitted =
        story.events.count > DeviceFieldStories.eventsSent
        ? story.events.count - DeviceFieldStories.eventsSent : nil
      holds = story.holds
      notes = story.notes
      madeUp = story.madeUp
      tenant = story.tenant
    }
  }
}

/// What a fix sentence may say for one device: never a name another rule forbids (a reserved
/// word of its SDK is renamed, not defined), and with the tenant's table, where the tenant's
/// table changes (never RegScope's local table, which a receiver with --tenant refuses).
public struct FieldFixContext: Sendable {
  /// The device's SDK's reserved attribute names beyond the shared ones (iOS's HWID, ...).
  public var extraReserved: [String] = []
  /// The tenant's set the table came from, nil when the table is local.
  public var tenantSet: String? = nil

  public init(extraReserved: [String] = [], tenantSet: String? = nil) {
    self.extraReserved = extraReserved
    self.tenantSet = tenantSet
  }
}
