import EngagementCore
import RegistrationCore
import SystemCalls

extension LocalEngagementServer {
  /// The watch's subscriber tokens (`DeviceWatch(makeToken:)`), opaque like the tenant's: 128
  /// bits from the system's random source, so one server's tokens tell nothing about
  /// another's. Drawn from `RandomPool`: those bytes read 4 KB at a time, not a system call for
  /// every eight bytes (a fleet mints a token for every new device).
  static let pooledToken: @Sendable () -> String = {
    withUnsafeTemporaryAllocation(byteCount: 16, alignment: 1) { bytes in
      RandomPool.fill(bytes)
      return TokenText.hex(prefix: "rs-", UnsafeRawBufferPointer(bytes))
    }
  }
}
