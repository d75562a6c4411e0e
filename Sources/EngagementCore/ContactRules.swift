import RegistrationCore

/// S3, S4 and R8, the contact bookkeeping of processing: which contact a registration puts
/// its device in, and which contact a device leaves behind with no device. The server's
/// processing and the fleet's households both decide by these, each over its own storage.
public enum ContactRules {
  /// S3: the contact key the registration sent; else the contact the device is already in;
  /// else the one the device holding the same push token is in. Nil: make one up (R8).
  public static func contact(
    sent payload: RegistrationPayload, current: String?, tokenHolderContact: String?
  ) -> String? {
    ProcessingRules.contactKey(payload) ?? current ?? tokenHolderContact
  }

  /// S4: a device belongs to one contact. When it moved from `previous` to `now`, the contact
  /// it left is orphaned if no device is left in it.
  public static func orphaned(previous: String?, now: String, devicesLeftIn: (String) -> Int)
    -> String?
  {
    guard let previous, previous != now, devicesLeftIn(previous) == 0 else { return nil }
    return previous
  }
}

/// Which contact each device is in, from the registrations accepted so far, by
/// `ContactRules`: the bookkeeping of a judged capture and of the fleet's households, which
/// have no server to ask. (The server keeps its own, in its store.)
public struct ContactBook: Sendable {
  /// Each contact's devices; a contact whose set is empty is orphaned.
  public private(set) var devicesOf: [String: Set<String>] = [:]
  private var contactOf: [String: String] = [:]

  public init() {}

  /// S3, S4, R8: puts the device in the contact the accepted `payload` names (or keeps it where
  /// it is); with nothing to go on, in a contact made up for it. True when one was made up.
  @discardableResult
  public mutating func accept(_ payload: RegistrationPayload, deviceID: String) -> Bool {
    let current = contactOf[deviceID]
    let known = ContactRules.contact(sent: payload, current: current, tokenHolderContact: nil)
    let key = known ?? "made-up:\(deviceID)"
    if key != current {
      if let current { devicesOf[current]?.remove(deviceID) }
      contactOf[deviceID] = key
      devicesOf[key, default: []].insert(deviceID)
    }
    return known == nil
  }

  /// Whether a device other than `deviceID` is still in `contact`.
  public func hasOtherDevices(_ contact: String, than deviceID: String) -> Bool {
    devicesOf[contact]?.contains { $0 != deviceID } ?? false
  }
}
