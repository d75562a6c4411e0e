import Foundation
import RegistrationCore
import RegistrationEngine
import Testing

@Suite("R7 configuration")
struct ConfigurationTests {
  let file = """
    [
      {"name": "staging", "appid": "app-staging", "accesstoken": "staging-token-0123456789",
       "marketingcloudserverurl": "https://mc.example.com/"},
      {"name": "production", "appid": "app-prod", "accesstoken": "prod-token-0123456789",
       "marketingcloudserverurl": "https://mc.example.com/",
       "delayregistrationuntilcontactkeyisset": true, "platform": "android",
       "analytics": true, "inbox": false}
    ]
    """

  @Test(
    "the iOS SDK's own MarketingCloudSDKConfiguration.json loads unchanged, under every profile")
  func iosSampleFile() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(
        "Fixtures/MarketingCloudSDKConfiguration.json"
      ).path
    for sdk in [nil, SDKProfile.ios, .android] {
      let config = try ConfigurationFile.load(path: path, name: "production", sdk: sdk)
      #expect(config.appID == "0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b")
      #expect(
        config.registrationURL.absoluteString
          == "https://mc-example.device.marketingcloudapis.com/device/v1/registration")
      #expect(config.startupWarnings.isEmpty)
      #expect(config.profile == (sdk ?? .documented))
    }
    // RegScope's own key chooses the profile when --sdk does not.
    let chosen = try ConfigurationFile.parse(
      Data(
        #"[{"name":"p","appid":"0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b","accesstoken":"abcdefghijklmnopqrstuvwx","marketing_cloud_server_url":"https://x","regscope_sdk":"Android"}]"#
          .utf8), source: "sdk.json", name: "p")
    #expect(chosen.profile == .android)
    #expect {
      try ConfigurationFile.parse(
        Data(
          #"[{"name":"p","appid":"a","accesstoken":"t","marketing_cloud_server_url":"https://x","regscope_sdk":"windows"}]"#
            .utf8), source: "sdk.json", name: "p")
    } throws: { "\($0)".contains("regscope_sdk") && "\($0)".contains("documented|ios|android") }
    // A version the grammar refuses says what a version is, as --sdk does.
    #expect {
      try ConfigurationFile.parse(
        Data(
          #"[{"name":"p","appid":"a","accesstoken":"t","marketing_cloud_server_url":"https://x","regscope_sdk":"android@8.-1.0"}]"#
            .utf8), source: "sdk.json", name: "p")
    } throws: {
      "\($0)".contains("regscope_sdk") && "\($0)".contains("three whole numbers joined by dots")
    }
  }

  @Test("R7.1 a file of named configurations; one is chosen by name; unknown keys ignored")
  func chooseByName() throws {
    let config = try ConfigurationFile.parse(
      Data(file.utf8), source: "sdk.json", name: "production")
    #expect(config.appID == "app-prod")
    #expect(config.delayRegistrationUntilContactKeyIsSet)
    #expect(config.platform == .android)
    #expect(
      config.registrationURL.absoluteString == "https://mc.example.com/device/v1/registration")
    let staging = try ConfigurationFile.parse(Data(file.utf8), source: "sdk.json", name: "staging")
    #expect(!staging.delayRegistrationUntilContactKeyIsSet)
  }

  @Test(
    "R7.2 errors name the file, the configuration and the setting",
    arguments: [
      (
        #"[{"name": "p", "accesstoken": "t", "marketingcloudserverurl": "https://x"}]"#, "appid",
        "is missing"
      ),
      (
        #"[{"name": "p", "appid": " ", "accesstoken": "t", "marketingcloudserverurl": "https://x"}]"#,
        "appid", "is empty"
      ),
      (
        #"[{"name": "p", "appid": "a", "marketingcloudserverurl": "https://x"}]"#, "accesstoken",
        "is missing"
      ),
      (
        #"[{"name": "p", "appid": "a", "accesstoken": 42, "marketingcloudserverurl": "https://x"}]"#,
        "accesstoken", "must be a string"
      ),
      (
        #"[{"name": "p", "appid": "a", "accesstoken": "t"}]"#, "marketing_cloud_server_url",
        "is missing"
      ),
      (
        #"[{"name": "p", "appid": "a", "accesstoken": "t", "marketingcloudserverurl": "ftp://x"}]"#,
        "marketing_cloud_server_url", "not an http(s) URL"
      ),
      (
        #"[{"name": "p", "appid": "a", "accesstoken": "t", "marketingcloudserverurl": "https://x", "delayregistrationuntilcontactkeyisset": 1}]"#,
        "delayregistrationuntilcontactkeyisset", "true or false"
      ),
      (
        #"[{"name": "p", "appid": "a", "accesstoken": "t", "marketingcloudserverurl": "https://x", "platform": "Windows"}]"#,
        "platform", "\"iOS\" or \"Android\""
      ),
    ])
  func settingErrors(json: String, setting: String, reason: String) {
    #expect {
      _ = try ConfigurationFile.parse(Data(json.utf8), source: "sdk.json", name: "p")
    } throws: { error in
      guard let error = error as? ConfigurationError else { return false }
      let text = "\(error)"
      return error.setting == setting && error.configuration == "p"
        && text.contains("sdk.json") && text.contains(reason)
    }
  }

  @Test("R7.2 malformed JSON is reported with its line and column")
  func malformedJSON() {
    let broken = "[\n  {\"name\": \"p\",\n   \"appid\": oops}\n]"
    #expect {
      _ = try ConfigurationFile.parse(Data(broken.utf8), source: "sdk.json", name: "p")
    } throws: { error in
      "\(error)".contains("sdk.json") && "\(error)".contains("line 3")
    }
  }

  @Test("R7.1 an unknown name lists the names the file has; the wrong shape is explained")
  func unknownNameAndShape() {
    #expect {
      _ = try ConfigurationFile.parse(Data(file.utf8), source: "sdk.json", name: "prod")
    } throws: { error in
      "\(error)".contains("\"staging\", \"production\"")
    }
    #expect {
      _ = try ConfigurationFile.parse(Data(#"{"name": "p"}"#.utf8), source: "sdk.json", name: "p")
    } throws: { error in
      "\(error)".contains("array of named configurations")
    }
    #expect {
      _ = try ConfigurationFile.load(path: "/nonexistent/sdk.json", name: "p")
    } throws: { error in
      "\(error)".contains("/nonexistent/sdk.json") && "\(error)".contains("cannot be read")
    }
  }

  @Test("R7.2 the builder checks every setting before anything runs")
  func builder() throws {
    let config = try RegistrationConfigurationBuilder()
      .setApplicationId("app").setAccessToken("token-0123456789")
      .setMarketingCloudServerUrl("http://127.0.0.1:8080")
      .setDelayRegistrationUntilContactKeyIsSet(true).build()
    #expect(config.machineSettings.delayRegistrationUntilContactKeyIsSet)
    #expect(throws: ConfigurationError.self) {
      try RegistrationConfigurationBuilder().setApplicationId("app").build()
    }
    #expect(throws: ConfigurationError.self) {
      try RegistrationConfigurationBuilder().setApplicationId("app").setAccessToken("t")
        .setMarketingCloudServerUrl("http://x").setRequestTimeout(0).build()
    }
  }

  @Test("the access token never prints whole: description, debug, dump, interpolation")
  func tokenMasked() throws {
    let config = try ConfigurationFile.parse(
      Data(file.utf8), source: "sdk.json", name: "production")
    let secret = "prod-token-0123456789"
    var dumped = ""
    dump(config, to: &dumped)
    for text in ["\(config)", String(reflecting: config), dumped, "\(config.accessToken)"] {
      #expect(!text.contains(secret))
      #expect(!text.contains("0123456789"))
    }
    #expect(config.accessToken.masked == "prod…(21 chars)")
    #expect(AccessToken("short").masked == "…(5 chars)")
  }
}
