/// One setting as each configuration format spells it (SDK-FACTS, "Across SDK majors": the iOS
/// file's keys and the wrappers' own), so a wrapper's file becomes the iOS file's settings and
/// a key that is almost right can be named with the spelling its reader reads.
struct SettingSpelling: Sendable {
  /// The iOS file's key (lowercase); nil for what is not in it (the sender id, the icon).
  var ios: String?
  /// The Cordova preference, after `com.salesforce.marketingcloud.`.
  var cordova: String?
  /// The Expo community plugin's property (JavaScript, so case matters).
  var expo: String?
  /// What the setting is, in words, for "so ... is missing".
  var label: String
  /// True when the iOS file has a boolean here (a Cordova "true"/"false" becomes one).
  var isBoolean = false
  /// Other spellings people write that mean this setting (normalized before lookup).
  var aliases: [String] = []
}

enum ConfigurationKeys {
  /// The Cordova plugin's prefix: a preference without it is ignored without a word.
  static let cordovaPrefix = "com.salesforce.marketingcloud."

  /// Every setting the iOS SDK, the Cordova plugin or the Expo plugin reads. Those with no iOS
  /// key are read by a wrapper but are not registration settings: accepted and ignored.
  static let all: [SettingSpelling] = [
    SettingSpelling(ios: "appid", cordova: "app_id", expo: "appId", label: "the app id"),
    SettingSpelling(
      ios: "accesstoken", cordova: "access_token", expo: "accessToken",
      label: "the access token"),
    SettingSpelling(
      ios: "marketing_cloud_server_url", cordova: "tenant_specific_endpoint",
      expo: "serverUrl", label: "the server URL", aliases: ["marketingcloudserverurl"]),
    SettingSpelling(ios: "mid", cordova: nil, expo: "mid", label: "the MID"),
    SettingSpelling(
      ios: "etanalytics", cordova: "analytics", expo: "analyticsEnabled", label: "analytics",
      isBoolean: true),
    SettingSpelling(
      ios: "pianalytics", cordova: nil, expo: nil, label: "predictive intelligence analytics",
      isBoolean: true),
    SettingSpelling(
      ios: "delayregistrationuntilcontactkeyisset",
      cordova: "delay_registration_until_contact_key_is_set",
      expo: "delayRegistrationUntilContactKeyIsSet",
      label: "the delay-until-contact-key switch", isBoolean: true),
    SettingSpelling(
      ios: "inbox", cordova: nil, expo: "inboxEnabled", label: "inbox", isBoolean: true),
    SettingSpelling(
      ios: "location", cordova: nil, expo: "locationEnabled", label: "location",
      isBoolean: true),
    SettingSpelling(
      ios: "applicationcontrolsbadging", cordova: nil, expo: "applicationControlsBadging",
      label: "application badging", isBoolean: true),
    SettingSpelling(
      ios: "uselegacypiidentifier", cordova: nil, expo: nil, label: "the legacy PI identifier",
      isBoolean: true),
    // 9.x adds this key to the iOS file; the Expo plugin spells it its own way (Android only).
    SettingSpelling(
      ios: "markmessagereadoninboxnotificationopen", cordova: nil,
      expo: "markNotificationReadOnInboxNotificationOpen",
      label: "mark-read on inbox notification open", isBoolean: true),
    SettingSpelling(ios: nil, cordova: "sender_id", expo: "senderId", label: "the sender id"),
    SettingSpelling(
      ios: nil, cordova: "notification_small_icon", expo: "iconFile",
      label: "the notification icon"),
    SettingSpelling(
      ios: nil, cordova: "geofence_messaging", expo: nil, label: "geofence messaging",
      isBoolean: true),
  ]

  /// What `build` cannot do without: a near miss that leaves one unset is an error.
  static let required: Set<String> = ["appid", "accesstoken", "marketing_cloud_server_url"]

  /// Every key the iOS file reader knows: the SDK's own, RegScope's earlier spellings of the
  /// server URL, and RegScope's additions. Any other key is checked for a near miss.
  static let iosFileKeys: Set<String> = Set(all.compactMap(\.ios)).union([
    "name", "marketingcloudserverurl", "serverurl", "regscope_sdk", "regscope_bundle_id",
    "platform", "debug", "requesttimeout",
  ])

  /// The Cordova preference suffix (lowercase, as both Cordova platforms lowercase names).
  static func cordova(_ suffix: String) -> SettingSpelling? {
    all.first { $0.cordova == suffix }
  }

  /// The Expo property, exactly as written.
  static func expo(_ property: String) -> SettingSpelling? {
    all.first { $0.expo == property }
  }

  /// The label of an iOS key, for "so the app id is missing".
  static func label(_ iosKey: String) -> String {
    all.first { $0.ios == iosKey }?.label ?? iosKey
  }

  /// The setting a key that is not any reader's own spelling almost is: the same letters once
  /// the Marketing Cloud prefix (with or without `com.`), case, `_`, `-` and `.` are set aside,
  /// in any format's spelling. Nil when it is nothing like one.
  static func nearest(_ written: String) -> SettingSpelling? {
    index[normalized(written)].map { all[$0] }
  }

  /// Lowercase, the prefix dropped, letters and digits only: `com.Salesforce.MarketingCloud.
  /// App_ID`, `salesforce.marketingcloud.app_id`, `appId` and `app_id` all become `appid`.
  static func normalized(_ key: String) -> String {
    var text = key.lowercased()
    let prefixes = [
      "com.salesforce.marketingcloud.", "salesforce.marketingcloud.", "marketingcloud.",
    ]
    if let prefix = prefixes.first(where: { text.hasPrefix($0) }) {
      text.removeFirst(prefix.count)
    }
    var kept = String.UnicodeScalarView()
    kept.append(
      contentsOf: text.unicodeScalars.filter { letters.contains($0) || digits.contains($0) })
    return String(kept)
  }

  private static let letters: ClosedRange<Unicode.Scalar> = "a"..."z"
  private static let digits: ClosedRange<Unicode.Scalar> = "0"..."9"

  /// Every spelling of every setting, normalized, to its place in `all`.
  private static let index: [String: Int] = {
    var result: [String: Int] = [:]
    for (position, spelling) in all.enumerated() {
      let names =
        [spelling.ios, spelling.cordova, spelling.expo].compactMap { $0 }
        + spelling.aliases
      for name in names { result[normalized(name)] = result[normalized(name)] ?? position }
    }
    return result
  }()
}
