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

    public init(status: String? = nil, modifiedDate: String? = nil, values: [String: String]?) {
      self.status = status
      self.modifiedDate = modifiedDate
      self.values = values
    }
  }

  /// The contact key the search was made with.
  public var contactKey: String
  /// The push address (addressTypeID 9) keyed by the device's id, when the contact holds it.
  public var address: Address?
  /// Push addresses the contact holds that are not this device's.
  public var otherPushAddresses: Int

  public init(contactKey: String, address: Address?, otherPushAddresses: Int = 0) {
    self.contactKey = contactKey
    self.address = address
    self.otherPushAddresses = otherPushAddresses
  }
}
