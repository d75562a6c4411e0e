import EngagementCore
import RegistrationCore
import SystemCalls

extension LocalEngagementServer {
  /// A subscriber token as `DeviceWatch.randomToken` makes one, from `RandomPool`: the
  /// system's random bytes read 4 KB at a time, not a system call for every eight bytes (a
  /// fleet mints a token for every new device).
  static let pooledToken: @Sendable () -> String = {
    withUnsafeTemporaryAllocation(byteCount: 16, alignment: 1) { bytes in
      RandomPool.fill(bytes)
      return TokenText.hex(prefix: "rs-", UnsafeRawBufferPointer(bytes))
    }
  }
}
