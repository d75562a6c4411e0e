import RegistrationCore

/// "Did it arrive?", asked of the tenant once a registration's propagation window had passed:
/// what the tenant holds for the device, field by field, beside what the app sent. One per
/// lookup, on the device's timeline; the newest also in each field's story.
public struct ReadBack: Sendable, Equatable, Encodable {
  public enum Verdict: String, Sendable, Encodable, CaseIterable {
    /// The tenant holds the value the compared registration sent.
    case heldAsSent
    /// The tenant holds another value (`heldFrom` names the registration that sent it, if any).
    case heldOther
    /// The device's address is there, with no value under the name.
    case notThere
    /// The device's push address is not held under the contact key: the registration did
    /// not arrive (or a newer one moved the device: `cause` says so).
    case notArrived
    /// What the tenant answered could not be read for it (an unknown shape): nothing is said
    /// missing.
    case notRead

    /// The one name every place gives this verdict.
    public var word: String {
      switch self {
      case .heldAsSent: "held as sent"
      case .heldOther: "other value"
      case .notThere: "not there"
      case .notArrived: Outcome.notArrived.word
      case .notRead: Outcome.notRead.word
      }
    }
  }

  /// A read-back's outcome as a whole, named the same in the device list, the timeline, the
  /// Fields pane, explain, the event stream, MCP and QA reports (`word`).
  public enum Outcome: String, Sendable, Encodable, CaseIterable {
    /// Everything compared is held as sent.
    case arrived
    /// The device's address is held under the key, but a value differs or is not there.
    case notAsSent
    /// The device's address is not held under the key (or the registration was rejected
    /// whole, S5, though an earlier one's address is held).
    case notArrived
    /// A newer registration carried another contact key: the device moved (R8.3).
    case moved
    /// The tenant's answer could not be read where the device's address could be.
    case notRead
    /// The tenant was not asked (no contact key, too many waiting, registrations gone).
    case notAsked
    /// The tenant could not answer (unreachable, refused, malformed).
    case noAnswer

    public var word: String {
      switch self {
      case .arrived: "arrived"
      case .notAsSent: "NOT AS SENT"
      case .notArrived: "NOT ARRIVED"
      case .moved: "moved"
      case .notRead: "not read"
      case .notAsked: "not asked"
      case .noAnswer: "no answer"
      }
    }

    /// The outcomes a user must act on.
    public var isFailure: Bool { self == .notAsSent || self == .notArrived }
  }

  /// One field compared.
  public struct Field: Sendable, Equatable, Encodable {
    /// `contactKey` or `attribute`.
    public var kind: FieldStory.Kind
    /// The attribute's key, or "contact key".
    public var name: String
    /// What the compared registration sent (escaped).
    public var sent: String?
    /// What the tenant holds (escaped), nil when nothing.
    public var held: String?
    public var verdict: Verdict
    /// With `heldOther`: the newest of this device's registrations that sent the held value,
    /// nil when none did (an import, Contact Builder, another device).
    public var heldFrom: Int?
    /// The known cause when it is not held (the contact key moved by a newer registration).
    public var cause: String? = nil
  }

  /// When the tenant was asked (virtual seconds).
  public var askedAt: Double
  /// The registration compared: the newest the tenant answered 2xx at least `window` before.
  public var registrationID: Int
  public var registrationAt: Double
  /// The propagation window waited (seconds).
  public var window: Double
  /// The contact key the tenant was asked by (escaped); nil when it was not asked.
  public var contactKey: String?
  /// Whether the tenant holds the device's push address under that key.
  public var addressFound: Bool
  /// The address's status as the tenant gives it (escaped).
  public var addressStatus: String?
  public var fields: [Field]
  /// Why the tenant was not asked, or could not answer; then `fields` is empty.
  public var problem: String?
  /// The outcome as a whole: its `word` is the one every place says.
  public var outcome: Outcome
  /// The sentence the event stream, the API and the QA report show.
  public var summary: String
  /// The outcome in a few words, for a timeline row: "tenant: #1 arrived (contact user-1, 2
  /// attributes)", "tenant: NOT ARRIVED under contact user-1 (S5: Plan)".
  public var headline: String

  /// The read-back without its fields, as the fields API sends it beside each field's own
  /// line: a device that sent thousands of attributes is not answered twice over.
  public struct Brief: Sendable, Encodable {
    public var askedAt: Double
    public var registrationID: Int
    public var window: Double
    public var contactKey: String?
    public var addressFound: Bool
    public var allHeld: Bool
    public var outcome: Outcome
    public var problem: String?
    public var summary: String
  }

  public var brief: Brief {
    Brief(
      askedAt: askedAt, registrationID: registrationID, window: window, contactKey: contactKey,
      addressFound: addressFound, allHeld: allHeld, outcome: outcome, problem: problem,
      summary: summary)
  }

  /// True when everything compared is held as sent.
  public var allHeld: Bool {
    problem == nil && addressFound && fields.allSatisfy { $0.verdict == .heldAsSent }
  }
}
