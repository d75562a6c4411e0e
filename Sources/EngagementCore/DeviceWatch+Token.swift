import RegistrationCore

extension DeviceWatch {
  /// An opaque token like the tenant's, 128 bits from a cryptographic random source: one
  /// server's tokens tell nothing about another's.
  public static func randomToken() -> String { TokenText.random(prefix: "rs-", bytes: 16) }
}
