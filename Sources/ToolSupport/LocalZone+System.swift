import SessionValues
import SystemCalls

extension LocalZone {
  /// This machine's time zone, read from the C library.
  public static let system = LocalZone { SystemCalls.localOffsetFromUTC(atEpochSeconds: $0) }
}
