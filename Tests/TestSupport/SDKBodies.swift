import Foundation

/// The app id and token the server tests' apps use.
public let appID = "995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47"
public let token = "server-token-0123456789"

/// The demo app's id and token, which the watch tests' apps carry.
public let watchAppID = "0e7b5a1d-9c3f-4b2e-8a6d-5f1c2e3d4a5b"
public let watchToken = "demo-access-token-012345"

/// A body as both shipped SDKs send it (SDK-FACTS: the fields, `uuid`, `registrationDateUtc`).
public func sdkBody(
  device: String = "WATCH-1", platform: String = "Android", app: String = appID,
  key: String? = nil,
  tags: [String] = ["ALL"], attributes: [String: String] = [:], uuid: String = UUID().uuidString
) -> String {
  let attributeList = attributes.sorted { $0.key < $1.key }
    .map { #"{"key":"\#($0.key)","value":"\#($0.value)"}"# }.joined(separator: ",")
  let keyField = key.map { #""subscriberKey":"\#($0)","# } ?? ""
  return
    #"{"app_Version":"1.0","attributes":[\#(attributeList)],"dST":false,"deviceID":"\#(device)","etAppId":"\#(app)","hwid":"Google Pixel 8","locale":"en_US","location_Enabled":false,"platform":"\#(platform)","platform_Version":"14","proximity_Enabled":false,"push_Enabled":true,"quietPushEnabled":false,"registrationDateUtc":"2026-11-22T10:00:00.000Z","sdk_Version":"10.0.0","signedString":null,\#(keyField)"tags":[\#(tags.map { "\"\($0)\"" }.joined(separator: ","))],"timeZone":"0","uuid":"\#(uuid)"}"#
}

/// The shipped SDKs' User-Agents (SDK-FACTS.md).
public let iosAgent =
  "MarketingCloudSdk/10.0.0 (iOS 17.5; en_US; Apple/iPhone15,2) com.example.app/1.0.0"
public let ipadAgent =
  "MarketingCloudSdk/10.0.0 (iPadOS 17.5; en_GB; Apple/iPad13,1) com.example.app/1.0.0"
public let androidAgent =
  "MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0"
