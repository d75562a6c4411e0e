extension DeviceWatch {
  /// An opaque token like the tenant's, 128 bits from the system's random source: one server's
  /// tokens tell nothing about another's.
  public static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    let halves = [generator.next() as UInt64, generator.next() as UInt64]
    // Written digit by digit: every new device of a fleet gets one.
    let digits = Array("0123456789abcdef".utf8)
    var text = Array("rs-".utf8)
    text.reserveCapacity(35)
    for half in halves {
      for shift in stride(from: 60, through: 0, by: -4) {
        text.append(digits[Int(half >> UInt64(shift) & 0xF)])
      }
    }
    return String(decoding: text, as: UTF8.self)
  }
}
