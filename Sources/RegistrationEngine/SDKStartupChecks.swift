import Foundation

/// What the shipped SDKs check before they start (SDK-FACTS.md, Configuration): a 24-character
/// access token and a UUID app id. Each problem is the setting and what is wrong with it.
public enum SDKStartupChecks {
  public static let accessTokenLength = 24

  public static func problems(appID: String, accessToken: String) -> [(String, String)] {
    var found: [(String, String)] = []
    if UUID(uuidString: appID) == nil {
      found.append(("appid", "is not a UUID"))
    }
    if accessToken.count != accessTokenLength {
      found.append(
        ("accesstoken", "is not \(accessTokenLength) characters (it has \(accessToken.count))"))
    }
    return found
  }
}
