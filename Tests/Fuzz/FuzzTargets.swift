import EngagementCore
import EngagementServer
import Foundation
import HAR
import InspectorUI
import QA
import RegistrationCore
import RegistrationEngine
import Scenarios
import Session
import SessionValues

/// What the fuzzers feed: every place where text from outside becomes a value. Each target
/// must never trap, and checks a property where it has one (what decodes re-encodes to the
/// same value; what parses prints back to the same command).
enum FuzzTarget: String, CaseIterable, Sendable {
  case scenario, config, command, wire, fault, theme, har, plan, bundle

  func run(_ input: [UInt8]) {
    let text = String(decoding: input, as: UTF8.self)
    switch self {
    case .scenario:
      _ = try? ScenarioParser.parse(text, source: "fuzz")
    case .config:
      let data = Data(input)
      for name in (try? ConfigurationFile.names(in: data, source: "fuzz")) ?? ["x"] {
        _ = try? ConfigurationFile.parse(data, source: "fuzz", name: name)
      }
    case .command:
      // What parses prints back (`description`) to a line that parses to the same command.
      guard let command = try? CommandParser.parse(text) else { return }
      let again = try? CommandParser.parse(command.description)
      if again != command {
        FuzzFailure.report("command \"\(command.description)\" does not parse back to itself")
      }
    case .wire:
      // What decodes re-encodes to bytes that decode to the same payload (each key once: a
      // key the input held twice is written once, with the value read).
      guard case .success(var payload) = WireDecoding.payload(from: Data(input)) else { return }
      payload.duplicateKeys = nil
      let again = WireDecoding.payload(from: Data(payload.encodedBytes()))
      if (try? again.get()) != payload {
        FuzzFailure.report("a decoded payload does not survive re-encoding")
      }
    case .fault:
      _ = try? FaultRequest.parse(input, now: Instant(1000))
    case .theme:
      _ = ThemeLoader.parse(text, source: "fuzz", base: nil)
    case .plan:
      // A plan that reads has steps, each with a time-out unless it is a fault.
      guard let plan = try? QAPlanParser.parse(text, source: "fuzz") else { return }
      for step in plan.steps {
        if case .fault = step.action { continue }
        if !(step.timeout.map { $0 > 0 && $0 <= QAPlanParser.longestTimeout } ?? false) {
          FuzzFailure.report("step \(step.number) has no sane time-out")
        }
      }
    case .bundle: Self.bundle(input)
    case .har:
      // A capture that reads judges every registration it counted, each on one device.
      guard let judge = try? HARReader.judge(documents: [("fuzz", Data(input))]) else { return }
      let judged = judge.devices.reduce(0) { $0 + $1.registrationCount }
      if judged != judge.counts.registrations {
        FuzzFailure.report("\(judge.counts.registrations) registrations counted, \(judged) judged")
      }
    }
  }

  /// The seeds: the built-in scenarios, themes and sample files, the README's examples, and
  /// a few hostile values per target.
  var seeds: [[UInt8]] {
    let texts: [String]
    switch self {
    case .scenario:
      texts =
        BuiltInScenarios.all.map(\.yaml) + [
          "name: x\nconfig: { requestTimeout: 601s }\nsteps:\n  - { at: 99999999999999999999s, do: launch }\n",
          "name: t\nsteps:\n  - { at: 0s, do: [\"server fail 429 retry-after 1e20\", \"tag add \\\"\\e]0;x\\a\\\"\"] }\n",
        ]
    case .config:
      texts = [
        #"[{"name":"production","appid":"995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47","accesstoken":"abcdefghijklmnopqrstuvwx","marketingcloudserverurl":"https://mc.example.com","delayregistrationuntilcontactkeyisset":true,"requesttimeout":30}]"#,
        #"[{"name":"x","appid":"a","accesstoken":"t","marketingcloudserverurl":"http://127.0.0.1:8080","requesttimeout":1e300}]"#,
        // The wrappers' files: a Cordova config.xml and an Expo app.json.
        #"<?xml version="1.0"?><widget id="com.example.app"><preference name="com.salesforce.marketingcloud.app_id" value="a"/><preference name="salesforce.marketingcloud.access_token" value="t"/><platform name="ios"><preference name="com.salesforce.marketingcloud.tenant_specific_endpoint" value="https://x"/><preference name="com.salesforce.marketingcloud.analytics" value="yes"/></platform></widget>"#,
        #"{"expo":{"ios":{"bundleIdentifier":"b"},"plugins":["x",["@allboatsrise/expo-marketingcloudsdk",{"appid":"a","accessToken":"t","serverUrl":"https://x","inboxEnabled":"false"}]]}}"#,
      ]
    case .command:
      texts = [
        "launch", "attr set CODE FREE99", "attr clear CODE", "tag add \"two words\"",
        "contact-key set user@example.com", "system set timezone -14400",
        "server fail 429 retry-after 120 for 10m", "server fail 503 times 3",
        "server define-attribute CODE", "server down", "tag remove sports",
      ]
    case .wire:
      texts = [
        Self.seedRegistration, #"{"deviceID":"D","etAppId":"a","platform":"iOS","tags":"x"}"#,
      ]
    case .fault:
      texts = [
        #"{"status": 503, "times": 3}"#, #"{"status": 429, "retryAfter": 120, "seconds": 600}"#,
        #"{"mode": "hang"}"#, #"{"mode": "down", "seconds": 30}"#, #"{"status":1e20}"#,
      ]
    case .theme:
      texts = BuiltInThemes.all.map(\.yaml)
    case .plan:
      texts =
        BuiltInPlans.yaml.map(\.text) + [
          "name: p\nsteps:\n  - expect: body-has\n    tags: [a]\n    attributes: {K: '*'}\n    timeout: 1e308s\n",
          "name: p\ndevice: \"\\e[2J\"\nsteps:\n  - fault: 429 retry-after 1e20 for 99999999999d\n",
        ]
    case .bundle:
      return Self.bundleSeeds
    case .har:
      texts = [
        String(decoding: HARDocument.encode([Self.seedExchange]), as: UTF8.self),
        #"{"log":{"version":"1.2","creator":{"name":"WebInspector","version":"537.36"},"pages":[{"startedDateTime":"2026-11-22T10:00:00.000+01:00","id":"page_1","title":"x","pageTimings":{}}],"entries":[{"_initiator":{"type":"other"},"_priority":"High","startedDateTime":"2026-11-22T10:00:00.123+01:00","time":-1,"request":{"method":"POST","url":"https://mc.example.com/device/v1/registration","httpVersion":"HTTP/1.1","headers":[{"name":"User-Agent","value":"MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0"}],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":-1,"postData":{"mimeType":"application/json","text":"{\"deviceID\":\"D\",\"etAppId\":\"a\",\"platform\":\"Android\"}"}},"response":{"status":503,"statusText":"","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":-1,"mimeType":"application/json","text":"e30=","encoding":"base64"},"redirectURL":"","headersSize":-1,"bodySize":-1},"cache":{},"timings":{"blocked":-1,"dns":-1,"connect":-1,"send":0,"wait":12,"receive":0},"comment":""}]}}"#,
        #"{"log":{"entries":[{"startedDateTime":"not a time"},[[[[[[[[]]]]]]]],"\u0000"]}}"#,
      ]
    }
    return texts.map { Array($0.utf8) }
  }

  /// A registration as RegScope's export writes it.
  static let seedExchange = CapturedExchange(
    startedAt: Instant(1.8e9), duration: 0.01, method: "POST",
    url: "http://127.0.0.1:8080/device/v1/registration",
    requestHeaders: [
      HeaderField(
        "User-Agent",
        "MarketingCloudSdk/10.0.0 (iOS 17.5; en_US; Apple/iPhone15,2) com.example.app/1.0.0")
    ],
    requestBody: Array(seedRegistration.utf8), status: 201,
    responseHeaders: [HeaderField("X-Subscriber-Token", "rs-0123456789abcdef")])

  /// Seed 000's registration example (R6.4), raw TAB included.
  static let seedRegistration = """
    {"quietPushEnabled": false, "location_Enabled": true, "timeZone": "-14400",
     "etAppId": "\t995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47", "hwid": "iPhone8,1", "dST": true,
     "device_Token": "a6e5e2cb24e65f2ea3fe2fdbaaed32a8e05ef0db26b1cb81c4a8fc5e6c4ffe06",
     "subscriberKey": "contactkey@example.com", "platform_Version": "9.3.2",
     "tags": ["ALL", "IOS", "Tag1"], "sdk_Version": "4.6.0", "deviceID": "1EB8C21D-CA72-41AC-930D-CEC9A311D699",
     "attributes": [{"key": "FirstName", "value": "Jane"}], "app_Version": "1.0", "push_Enabled": true,
     "platform": "iOS", "locale": "en_US", "proximity_Enabled": false}
    """
}
