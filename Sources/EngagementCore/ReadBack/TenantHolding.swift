/// What the tenant answered when asked for a device's push address (the Contacts API's address
/// search by contact key): the address whose key is the device id, under the contact key
/// asked by, or none; its status and modified date; and the attribute values its `valueSets`
/// hold, when RegScope could read them. Built at the edge from the tenant's answer; compared
/// here with what the app sent (`ReadBack.compare`).
public struct TenantHolding: Sendable, Equatable {
  public struct Address: Sendable, Equatable {
    public var status: String?
    public var modifiedDate: String?
    /// Attribute name to value. Nil when the answer carried no `valueSets` RegScope can read:
    /// then no attribute is said to be missing, only not read.
    public var values: [String: String]?
    /// The parts of the values that could not be read (each with an escaped excerpt of what
    /// came): a name not among `values` may be in them, so it is not read, never "not held".
    public var unreadValues: [String]

    public init(
      status: String? = nil, modifiedDate: String? = nil, values: [String: String]?,
      unreadValues: [String] = []
    ) {
      self.status = status
      self.modifiedDate = modifiedDate
      self.values = values
      self.unreadValues = unreadValues
    }
  }

  /// The contact key the search was made with.
  public var contactKey: String
  /// The push address (addressTypeID 9) keyed by the device's id, when the contact holds it.
  public var address: Address?
  /// Push addresses the contact holds that are not this device's.
  public var otherPushAddresses: Int
  /// With no address found: the parts of the answer that could have been the device's
  /// address but could not be read (an address whose key came in an unknown shape, pages not
  /// followed), each with an escaped excerpt. Then the address is not read, never "not there".
  public var unread: [String]

  public init(
    contactKey: String, address: Address?, otherPushAddresses: Int = 0, unread: [String] = []
  ) {
    self.contactKey = contactKey
    self.address = address
    self.otherPushAddresses = otherPushAddresses
    self.unread = unread
  }

  /// True when the device's address could not be read: nothing of it is said missing.
  public var addressNotRead: Bool { address == nil && !unread.isEmpty }
}
