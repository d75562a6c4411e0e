import Foundation
import RegistrationCore
import RegistrationEngine
import Testing

/// The wrappers' own files, loaded as they are: a Cordova config.xml and an Expo app.json.
@Suite("R7 configuration: the wrappers' files")
struct WrapperConfigurationTests {
  static func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/\(name)").path
  }

  static let appID = "0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b"
  static let token = "abcdefghijklmnopqrstuvwx"
  static let server = "https://mc-example.device.marketingcloudapis.com/"
  static let registration =
    "https://mc-example.device.marketingcloudapis.com/device/v1/registration"

  /// A config.xml whose preferences start on line 3, one a line.
  static func cordova(_ preferences: [(String, String)]) -> Data {
    let lines = preferences.map { "  <preference name=\"\($0.0)\" value=\"\($0.1)\" />" }
    let text =
      ["<?xml version='1.0' encoding='utf-8'?>", "<widget id=\"com.example.cordova\">"] + lines
      + ["</widget>"]
    return Data(text.joined(separator: "\n").utf8)
  }

  /// The three settings a Cordova app needs, written right.
  static let cordovaBasics = [
    ("com.salesforce.marketingcloud.app_id", appID),
    ("com.salesforce.marketingcloud.access_token", token),
    ("com.salesforce.marketingcloud.tenant_specific_endpoint", server),
  ]

  /// An app.json with the plugin's properties first in `expo.plugins`.
  static func expo(_ properties: String) -> Data {
    Data(
      #"{"expo": {"name": "x", "plugins": [["@allboatsrise/expo-marketingcloudsdk", {\#(properties)}]]}}"#
        .utf8)
  }

  static let expoBasics =
    #""appId": "\#(appID)", "accessToken": "\#(token)", "serverUrl": "\#(server)""#

  @Test("a Cordova config.xml with platform blocks: ios and android, each over the top level")
  func cordovaFixture() throws {
    let path = Self.fixture("cordova-config.xml")
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(try ConfigurationFile.names(in: data, source: path) == ["ios", "android"])
    let ios = try ConfigurationFile.load(path: path, name: "ios")
    #expect(ios.appID == Self.appID && ios.accessToken.revealed == Self.token)
    #expect(ios.registrationURL.absoluteString == Self.registration)
    #expect(ios.platform == .iOS && ios.appBundleID == "com.example.shop")
    #expect(!ios.delayRegistrationUntilContactKeyIsSet)
    #expect(ios.startupWarnings.isEmpty)
    let android = try ConfigurationFile.load(path: path, name: "android")
    #expect(android.appID == "7c1f2e3d-4b5a-4d6c-9e8f-0a1b2c3d4e5f")
    #expect(android.accessToken.revealed == "ABCDEFGHIJKLMNOPQRSTUVWX")
    #expect(android.registrationURL.absoluteString == Self.registration)
    #expect(android.platform == .android && android.appBundleID == "com.example.shop.android")
    #expect(android.delayRegistrationUntilContactKeyIsSet)
    #expect(android.startupWarnings.isEmpty)
  }

  @Test("a file with several configurations needs --config-name; the error lists them")
  func severalNeedAName() throws {
    #expect {
      _ = try ConfigurationFile.load(path: Self.fixture("cordova-config.xml"))
    } throws: { error in
      "\(error)".contains(#"the file has "ios", "android": choose one with --config-name"#)
    }
    let one =
      #"[{"name": "a", "appid": "a", "accesstoken": "t", "marketing_cloud_server_url": "https://x"}]"#
    #expect(try ConfigurationFile.parse(Data(one.utf8), source: "sdk.json").name == "a")
    let two =
      #"[{"name": "a", "appid": "a", "accesstoken": "t", "marketing_cloud_server_url": "https://x"}, {"name": "b", "appid": "b", "accesstoken": "t", "marketing_cloud_server_url": "https://x"}]"#
    #expect {
      _ = try ConfigurationFile.parse(Data(two.utf8), source: "sdk.json")
    } throws: { error in
      "\(error)" == #"sdk.json: the file has "a", "b": choose one with --config-name"#
    }
    #expect(try ConfigurationFile.parse(Data(two.utf8), source: "sdk.json", name: "b").name == "b")
  }

  @Test("top-level preferences only: one configuration, cordova, loaded with no name")
  func cordovaOneConfiguration() throws {
    let data = Self.cordova(
      Self.cordovaBasics + [
        ("Orientation", "portrait"),
        // Both Cordova platforms lowercase a preference's name: this one is read.
        ("com.Salesforce.MarketingCloud.Analytics", "true"),
      ])
    let config = try ConfigurationFile.parse(data, source: "config.xml")
    #expect(config.name == "cordova" && config.appID == Self.appID)
    #expect(config.accessToken.revealed == Self.token)
    #expect(config.registrationURL.absoluteString == Self.registration)
    #expect(config.appBundleID == "com.example.cordova")
    #expect(config.startupWarnings.isEmpty)
  }

  @Test(
    "a Cordova boolean is \"true\" or \"false\", in any case",
    arguments: [("true", true), ("TRUE", true), ("False", false), ("false", false)])
  func cordovaBoolean(text: String, value: Bool) throws {
    let data = Self.cordova(
      Self.cordovaBasics + [
        ("com.salesforce.marketingcloud.delay_registration_until_contact_key_is_set", text)
      ])
    let config = try ConfigurationFile.parse(data, source: "config.xml")
    #expect(config.delayRegistrationUntilContactKeyIsSet == value)
  }

  @Test("a Cordova boolean that is neither names its line; the two platforms would disagree")
  func cordovaBooleanRefused() {
    let data = Self.cordova(
      Self.cordovaBasics + [
        ("com.salesforce.marketingcloud.delay_registration_until_contact_key_is_set", "yes")
      ])
    #expect {
      _ = try ConfigurationFile.parse(data, source: "config.xml")
    } throws: { error in
      let text = "\(error)"
      return text.hasPrefix("config.xml line 6") && text.contains(#"must be "true" or "false""#)
        && text.contains(#"got "yes""#)
    }
  }

  @Test(
    "a Cordova preference almost right, leaving a required value unset, is an error that names the right spelling",
    arguments: ["salesforce.marketingcloud.app_id", "appId", "appid", "marketingcloud.app_id"])
  func cordovaNearMissRequired(written: String) {
    let data = Self.cordova([(written, Self.appID)] + Self.cordovaBasics.dropFirst())
    #expect {
      _ = try ConfigurationFile.parse(data, source: "config.xml")
    } throws: { error in
      guard let error = error as? ConfigurationError else { return false }
      return error.source == "config.xml line 3" && error.setting == written
        && error.reason.contains("ignored by the Cordova plugin (silently)")
        && error.reason.contains("the app id is missing")
        && error.reason.hasSuffix(#"write "com.salesforce.marketingcloud.app_id""#)
    }
  }

  @Test("a Cordova preference almost right, where nothing is missing, is a start-up warning")
  func cordovaNearMissWarning() throws {
    let written = "salesforce.marketingcloud.delay_registration_until_contact_key_is_set"
    let config = try ConfigurationFile.parse(
      Self.cordova(Self.cordovaBasics + [(written, "true")]), source: "config.xml")
    #expect(!config.delayRegistrationUntilContactKeyIsSet)
    #expect(
      config.startupWarnings == [
        #"config.xml line 6: preference "salesforce.marketingcloud.delay_registration_until_contact_key_is_set" is ignored by the Cordova plugin (silently): write "com.salesforce.marketingcloud.delay_registration_until_contact_key_is_set""#
      ])
  }

  @Test("a required Cordova preference that is absent is named as Cordova spells it")
  func cordovaMissing() {
    #expect {
      _ = try ConfigurationFile.parse(
        Self.cordova(Array(Self.cordovaBasics.dropLast())), source: "config.xml")
    } throws: { error in
      guard let error = error as? ConfigurationError else { return false }
      return error.setting == "com.salesforce.marketingcloud.tenant_specific_endpoint"
        && error.reason == "is missing"
    }
  }

  @Test("an SDK of the other platform than the configuration's app is refused, naming both")
  func platformMismatch() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/cordova-config.xml").path
    #expect {
      _ = try ConfigurationFile.load(
        path: path, name: "android", sdk: SDKProfile(loose: "ios@8.1.4"))
    } throws: { error in
      "\(error)".contains(
        "the ios@8.1.4 SDK runs on iOS, but this configuration is an Android app's")
    }
    let matching = try ConfigurationFile.load(
      path: path, name: "android", sdk: SDKProfile(loose: "android@8.2.1"))
    #expect(matching.platform == .android && matching.profile.sdkVersion == "8.2.1")
  }

  @Test("an element name that is not UTF-8 is refused with its line, never handed to the parser")
  func invalidUTF8() {
    // What the fuzzer found: Foundation's XMLParser traps on it.
    let bytes =
      Array("<?xml version=\"1.0\"?>\n<widget id=\"x\">\n<preferen".utf8) + [0xD8]
      + Array("ce name=\"com.salesforce.marketingcloud.app_id\" value=\"a\"/></widget>".utf8)
    #expect {
      _ = try ConfigurationFile.parse(Data(bytes), source: "config.xml")
    } throws: { error in
      "\(error)" == "config.xml: is not valid UTF-8 (line 3); a Cordova config.xml is UTF-8"
    }
  }

  @Test(
    "what Foundation's XML parser traps on is refused first: an instruction, a NUL, a doctype",
    arguments: [
      ("<?xml version=\"1.0\"?><widget><?xm?></widget>", "holds a processing instruction (line 1)"),
      ("<widget>\n<a>\u{0}</a></widget>", "holds a NUL byte (line 2)"),
      ("<!DOCTYPE widget>\n<widget/>", "declares a document type (line 1)"),
      ("<?xml?><widget/>", "has an XML declaration without its version (line 1)"),
      (
        "\n<?xml encoding=\"utf-8\"?><widget/>",
        "has an XML declaration without its version (line 2)"
      ),
      ("<?xml version?><widget/>", "has an XML declaration without its version"),
      ("<?xml version=\"\"?><widget/>", "has an XML declaration without its version"),
    ])
  func parserTraps(text: String, problem: String) {
    #expect {
      _ = try ConfigurationFile.parse(Data(text.utf8), source: "config.xml")
    } throws: { error in "\(error)".hasPrefix("config.xml: \(problem)") }
  }

  @Test("a prefix the file forgot to declare (android: in an edit-config) is read past")
  func undeclaredPrefix() throws {
    let lines = Self.cordovaBasics.map { "  <preference name=\"\($0.0)\" value=\"\($0.1)\" />" }
    let text =
      ["<?xml version='1.0' encoding='utf-8'?>", "<widget id=\"com.example.cordova\">"] + lines
      + [
        "  <edit-config file=\"AndroidManifest.xml\" target=\"/manifest/application\">",
        "    <application android:usesCleartextTraffic=\"true\" />", "  </edit-config>",
        "</widget>",
      ]
    let configuration = try ConfigurationFile.parse(
      Data(text.joined(separator: "\n").utf8), source: "config.xml")
    #expect(configuration.name == "cordova")
  }

  @Test("malformed XML names its line; XML that is no config.xml says so")
  func malformedXML() {
    let broken =
      "<?xml version=\"1.0\"?>\n<widget id=\"x\">\n  <preference name=oops />\n</widget>\n"
    #expect {
      _ = try ConfigurationFile.parse(Data(broken.utf8), source: "config.xml")
    } throws: { error in
      "\(error)".hasPrefix("config.xml: is not well-formed XML") && "\(error)".contains("line 3")
    }
    #expect {
      _ = try ConfigurationFile.parse(
        Data("\u{FEFF}  <plist><dict/></plist>".utf8), source: "x.xml")
    } throws: { error in
      "\(error)".contains("not a Cordova config.xml") && "\(error)".contains("<plist>")
    }
    #expect {
      let bomb = "<?xml version=\"1.0\"?><!DOCTYPE widget [<!ENTITY a \"aaaa\">]><widget/>"
      _ = try ConfigurationFile.parse(Data(bomb.utf8), source: "config.xml")
    } throws: { error in
      "\(error)".contains("declares XML entities")
    }
  }

  @Test("an Expo app.json: the plugin's properties, its one configuration, the bundle ids")
  func expoFixture() throws {
    let path = Self.fixture("expo-app.json")
    let config = try ConfigurationFile.load(path: path)
    #expect(config.name == "expo" && config.appID == Self.appID)
    #expect(config.accessToken.revealed == Self.token)
    #expect(config.registrationURL.absoluteString == Self.registration)
    #expect(config.delayRegistrationUntilContactKeyIsSet)
    #expect(config.appBundleID == "com.example.shop")
    #expect(config.startupWarnings.isEmpty)
    let android = try ConfigurationFile.load(path: path, name: "expo", sdk: .android)
    #expect(android.platform == .android && android.appBundleID == "com.example.shop.android")
  }

  @Test(
    "an Expo property almost right, leaving a required value unset, names the right spelling and its JSON path",
    arguments: ["appid", "AppId", "app_id", "com.salesforce.marketingcloud.app_id"])
  func expoNearMissRequired(written: String) {
    let properties =
      #""\#(written)": "\#(Self.appID)", "accessToken": "\#(Self.token)", "serverUrl": "\#(Self.server)""#
    #expect {
      _ = try ConfigurationFile.parse(Self.expo(properties), source: "app.json")
    } throws: { error in
      guard let error = error as? ConfigurationError else { return false }
      return error.source == "app.json" && error.configuration == "expo"
        && error.setting == "expo.plugins[0][1].\(written)"
        && error.reason.contains("ignored by the Expo plugin (silently)")
        && error.reason.hasSuffix(#"write "appId""#)
    }
  }

  @Test("an Expo property almost right, where nothing is missing, is a start-up warning")
  func expoNearMissWarning() throws {
    let config = try ConfigurationFile.parse(
      Self.expo(Self.expoBasics + #", "delayregistrationuntilcontactkeyisset": true"#),
      source: "app.json")
    #expect(!config.delayRegistrationUntilContactKeyIsSet)
    #expect(
      config.startupWarnings == [
        #"app.json: property "expo.plugins[0][1].delayregistrationuntilcontactkeyisset" is ignored by the Expo plugin (silently): write "delayRegistrationUntilContactKeyIsSet""#
      ])
  }

  @Test("an iOS file's key from another format is named with the iOS spelling")
  func iosNearMiss() throws {
    let missing =
      #"[{"name": "p", "app_id": "\#(Self.appID)", "accesstoken": "\#(Self.token)", "marketing_cloud_server_url": "\#(Self.server)"}]"#
    #expect {
      _ = try ConfigurationFile.parse(Data(missing.utf8), source: "sdk.json")
    } throws: { error in
      guard let error = error as? ConfigurationError else { return false }
      return error.setting == "app_id" && error.reason.hasSuffix(#"write "appid""#)
    }
    let extra =
      #"[{"name": "p", "appid": "\#(Self.appID)", "accesstoken": "\#(Self.token)", "marketing_cloud_server_url": "\#(Self.server)", "delayRegistrationUntilContactKeyIsSet": true, "analyticsEnabled": true}]"#
    let config = try ConfigurationFile.parse(Data(extra.utf8), source: "sdk.json")
    #expect(config.delayRegistrationUntilContactKeyIsSet)
    #expect(
      config.startupWarnings == [
        #"sdk.json: key "analyticsEnabled" is ignored by the iOS SDK (silently): write "etanalytics""#
      ])
  }

  /// A file, the setting as it spells it, and the start of the reason.
  static let wrongTypes: [(Data, String, String)] = [
    (
      expo(expoBasics + #", "delayRegistrationUntilContactKeyIsSet": "true""#),
      "expo.plugins[0][1].delayRegistrationUntilContactKeyIsSet",
      #"must be true or false, a JSON boolean; got the string "true""#
    ),
    (
      expo(#""appId": 42, "accessToken": "\#(token)", "serverUrl": "\#(server)""#),
      "expo.plugins[0][1].appId", "must be a string"
    ),
    (
      Data(
        #"[{"name": "p", "appid": "a", "accesstoken": "t", "marketing_cloud_server_url": "https://x", "delayregistrationuntilcontactkeyisset": "true"}]"#
          .utf8), "delayregistrationuntilcontactkeyisset",
      #"must be true or false, not the string "true""#
    ),
  ]

  @Test(
    "a value of the wrong type is a clear error naming the setting as the file spells it",
    arguments: WrapperConfigurationTests.wrongTypes)
  func wrongType(data: Data, setting: String, reason: String) {
    #expect {
      _ = try ConfigurationFile.parse(data, source: "app.json")
    } throws: { error in
      guard let error = error as? ConfigurationError else { return false }
      return error.setting == setting && error.reason.hasPrefix(reason)
    }
  }

  @Test("an app.json without the Marketing Cloud plugin says what to add; any case of its name")
  func expoPluginFound() throws {
    #expect {
      _ = try ConfigurationFile.parse(
        Data(#"{"expo": {"plugins": ["expo-router"]}}"#.utf8), source: "app.json")
    } throws: { error in
      "\(error)".contains("no Marketing Cloud plugin")
        && "\(error)".contains("@allboatsrise/expo-marketingcloudsdk")
    }
    let renamed = Data(
      #"{"expo": {"plugins": [["Expo-MarketingCloudSDK", {\#(Self.expoBasics)}]]}}"#.utf8)
    #expect(try ConfigurationFile.parse(renamed, source: "app.json").appID == Self.appID)
  }
}
