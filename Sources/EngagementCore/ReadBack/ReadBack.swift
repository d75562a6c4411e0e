import RegistrationCore

/// "Did it arrive?", asked of the tenant once a registration's propagation window had passed:
/// what the tenant holds for the device, field by field, beside what the app sent. One per
/// lookup, on the device's timeline; the newest also in each field's story.
public struct ReadBack: Sendable, Equatable, Encodable {
  public enum Verdict: String, Sendable, Encodable {
    /// The tenant holds the value the compared registration sent.
    case heldAsSent
    /// The tenant holds another value (`heldFrom` names the registration that sent it, if any).
    case heldOther
    /// The tenant holds nothing for it: no address for the device, or no value under the name.
    case notThere
    /// The address is there but its values could not be read (their shape is not documented).
    case notRead
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
  /// The sentence the event stream, the API and the QA report show.
  public var summary: String
  /// The outcome in a few words, for a timeline row: "tenant: held as sent (contact user-1, 2
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
    public var problem: String?
    public var summary: String
  }

  public var brief: Brief {
    Brief(
      askedAt: askedAt, registrationID: registrationID, window: window, contactKey: contactKey,
      addressFound: addressFound, allHeld: allHeld, problem: problem, summary: summary)
  }

  /// True when everything compared is held as sent.
  public var allHeld: Bool {
    problem == nil && addressFound && fields.allSatisfy { $0.verdict == .heldAsSent }
  }
}
