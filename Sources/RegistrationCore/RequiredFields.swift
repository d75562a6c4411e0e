/// R6.3: a registration lacking any of these is not sent; the inspector shows which.
public enum RequiredFields {
  public static func missing(record: ContactRecord, hasAccessToken: Bool) -> [String] {
    var missing: [String] = []
    if !hasAccessToken { missing.append("access token") }
    if InputRules.trimmed(record.device.deviceID).isEmpty { missing.append("deviceID") }
    if InputRules.trimmed(record.device.etAppId).isEmpty { missing.append("etAppId") }
    return missing
  }
}
