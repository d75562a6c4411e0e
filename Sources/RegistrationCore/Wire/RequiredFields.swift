/// R6.3 and S1: the fields a registration must carry, each present and not blank. One
/// definition for the device (which does not send without them), the server's check, the judge,
/// a capture's refusals, `--any-app`'s adoption and a state dump's reading.
public enum RequiredFields {
  /// The fields, in the wire's order.
  public static let names = ["deviceID", "etAppId", "platform"]

  /// The fields a payload lacks.
  public static func missing(in payload: RegistrationPayload) -> [String] {
    // The usual answer, nothing missing, without building arrays: every registration asks.
    if !isBlank(payload.deviceID), !isBlank(payload.etAppId), !isBlank(payload.platform) {
      return []
    }
    return missing([payload.deviceID, payload.etAppId, payload.platform])
  }

  /// What a device lacks before it can send: its access token, then the record's fields (its
  /// platform is always set). Read from the record itself: this runs on every edit.
  public static func missing(record: ContactRecord, settings: MachineSettings) -> [String] {
    let device = record.device
    // The usual answer, nothing missing, without building an array.
    if settings.hasAccessToken, !isBlank(device.deviceID), !isBlank(device.etAppId) {
      return []
    }
    return (settings.hasAccessToken ? [] : ["access token"])
      + missing([device.deviceID, device.etAppId, device.platform.rawValue])
  }

  /// `values` in the order of `names`: the names of those absent or blank.
  private static func missing(_ values: [String?]) -> [String] {
    zip(names, values).filter { isBlank($0.1) }.map(\.0)
  }

  /// Absent, or nothing but white space (what `InputRules.trimmed` leaves empty).
  static func isBlank(_ value: String?) -> Bool {
    value?.unicodeScalars.allSatisfy(InputRules.isWhitespace) ?? true
  }
}
