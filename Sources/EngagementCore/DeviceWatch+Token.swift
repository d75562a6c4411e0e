import RegistrationCore

extension DeviceWatch {
  /// An opaque token like the tenant's, 128 bits from the system's random source: one server's
  /// tokens tell nothing about another's. The local server mints its tokens from a pool of the
  /// same source read 4 KB at a time (`LocalEngagementServer.pooledToken`).
  public static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    var halves = (generator.next() as UInt64, generator.next() as UInt64)
    return withUnsafeBytes(of: &halves) { TokenText.hex(prefix: "rs-", $0) }
  }
}
