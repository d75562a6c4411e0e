/// R6.3: a registration lacking any of these is not sent; the inspector shows which.
public enum RequiredFields {
  public static func missing(record: ContactRecord, hasAccessToken: Bool) -> [String] {
    var missing: [String] = []
    if !hasAccessToken { missing.append("access token") }
    if isBlank(record.device.deviceID) { missing.append("deviceID") }
    if isBlank(record.device.etAppId) { missing.append("etAppId") }
    return missing
  }

  private static func isBlank(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
  }
}
