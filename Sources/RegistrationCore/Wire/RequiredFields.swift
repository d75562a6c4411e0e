/// R6.3 and S1: the fields a registration must carry, each present and not blank. One
/// definition for the device (which does not send without them), the server's check, the judge,
/// a capture's refusals, `--any-app`'s adoption and a state dump's reading.
public enum RequiredFields {
  /// The fields a payload lacks, in the wire's order.
  public static func missing(in payload: RegistrationPayload) -> [String] {
    [("deviceID", payload.deviceID), ("etAppId", payload.etAppId), ("platform", payload.platform)]
      .filter { InputRules.trimmed($0.1 ?? "").isEmpty }.map(\.0)
  }

  /// What a device lacks before it can send: its access token, then the payload's fields.
  public static func missing(record: ContactRecord, settings: MachineSettings) -> [String] {
    (settings.hasAccessToken ? [] : ["access token"])
      + missing(in: RegistrationPayload(record: record, settings: settings))
  }
}
