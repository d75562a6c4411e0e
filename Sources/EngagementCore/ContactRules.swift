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
