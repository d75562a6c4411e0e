import Foundation
import RegistrationCore
import Testing

@testable import StateDumps

/// State dumps per major (SDK-FACTS, "Across SDK majors"): 8.x and 9.x Android apps dump flat
/// in SFMCSdk 1.0.x's wrapper, 10.x in 3.0.x's `modules`; each is read with the profile of the
/// version its registration names, and the report says which.
@Suite("SDK state dumps across majors")
struct StateDumpVersionTests {
  static func androidDump(flat: Bool, sdkVersion: String) -> Data {
    let current =
      #""{\"deviceID\":\"D9\",\"etAppId\":\"app\",\"platform\":\"Android\",\"sdk_Version\":\"\#(sdkVersion)\",\"tags\":[\"ALL\",\"Android\"]}""#
    let inner =
      #"{"RegistrationManager": {"current_registration": \#(current), "last_sent_timestamp": "2026-11-18T10:00:00.000Z"}}"#
    return Data(
      (flat
        ? #"{"sfmcSDKVersion": "1.0.5", "PUSH": \#(inner)}"#
        : #"{"sfmcSDKVersion": "3.0.1", "modules": {"ENGAGEMENT": \#(inner)}}"#).utf8)
  }

  @Test("a 9.x app's flat dump names its version, its wrapper and the profile it is read with")
  func flatNine() throws {
    let reading = try StateDumpImport.read(
      Self.androidDump(flat: true, sdkVersion: "9.0.3"), source: "nine.json")
    #expect(reading.wrapper == .flat(sfmcSDKVersion: "1.0.5"))
    #expect(reading.profile.sdkVersion == "9.0.3" && reading.profile.sendsUUID)
    #expect(reading.versionMismatch == nil)
    let text = StateDumpReport.text(reading)
    #expect(
      text.hasPrefix(
        "Android SDK 9.0.3 state dump, flat in SFMCSdk 1.0.5's wrapper (the 8.x/9.x form)\nread with the profile android@9.0.3"
      ), "\(text)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(StateDumpReport.json(reading).utf8))
        as? [String: Any])
    #expect(
      json["sdkVersion"] as? String == "9.0.3" && json["profile"] as? String == "android@9.0.3")
    #expect((json["wrapper"] as? [String: String])?["form"] == "flat")
  }

  @Test("a 10.x dump in modules; a wrapper that disagrees with the version is said")
  func modulesAndMismatch() throws {
    let ten = try StateDumpImport.read(
      Self.androidDump(flat: false, sdkVersion: "10.0.0"), source: "ten.json")
    #expect(ten.wrapper == .modules(sfmcSDKVersion: "3.0.1") && ten.versionMismatch == nil)
    #expect(
      StateDumpReport.text(ten).contains("in SFMCSdk 3.0.1's modules wrapper (the 10.x form)"))
    let odd = try StateDumpImport.read(
      Self.androidDump(flat: true, sdkVersion: "10.0.0"), source: "odd.json")
    #expect(StateDumpReport.text(odd).contains("note: a flat dump is the 8.x/9.x form"))
    let older = try StateDumpImport.read(
      Self.androidDump(flat: false, sdkVersion: "8.2.1"), source: "older.json")
    #expect(older.versionMismatch?.contains("names SDK 8.2.1") == true)
    #expect(older.profile.headerCase == .capitalized && !older.profile.sendsUUID)
  }

  @Test("an iOS 8.x dump is read with the 8.x profile")
  func iosEight() throws {
    let current = #"{"deviceID":"I8","etAppId":"app","platform":"iPhone OS","sdk_Version":"8.1.4"}"#
    let reading = try StateDumpImport.read(
      Data(#"{"Registration Details": {"Current Registration": \#(current)}}"#.utf8),
      source: "ios8.json")
    #expect(StateDumpReport.text(reading).hasPrefix("iOS SDK 8.1.4 state dump (sfmc_getSDKState)"))
    #expect(StateDumpReport.profileName(reading) == "ios@8.1.4")
  }

  @Test(
    "the simulated device dumps in its major's wrapper, and the dump reads back as that major",
    arguments: [("android@9.0.0", true), ("android@8.2.1", true), ("android", false)])
  func writtenPerMajor(spelled: String, flat: Bool) throws {
    let profile = try #require(SDKProfile(loose: spelled))
    let text = SDKStateDump.write(StateDumpTests.state(profile), format: .unified)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect((object["modules"] == nil) == flat, "\(text)")
    let reading = try StateDumpImport.read(Data(text.utf8), source: "written.json")
    #expect(reading.sdkVersion == profile.sdkVersion)
    #expect(
      reading.wrapper
        == (flat ? .flat(sfmcSDKVersion: "1.0.5") : .modules(sfmcSDKVersion: "3.0.1")))
  }

  @Test("a flat dump whose registration names no version is read as 9.x, and says so")
  func flatWithoutVersion() throws {
    let current =
      #"{"deviceID":"D1","etAppId":"app","platform":"Android","tags":["ALL","Android"]}"#
    let reading = try StateDumpImport.read(
      Data(
        #"{"sfmcSDKVersion": "1.0.3", "PUSH": {"RegistrationManager": {"current_registration": \#(current)}}}"#
          .utf8), source: "flat.json")
    #expect(StateDumpReport.profileName(reading) == "android@9.0.0")
    #expect(StateDumpReport.text(reading).contains("note: the registration names no sdk_Version"))
  }
}
