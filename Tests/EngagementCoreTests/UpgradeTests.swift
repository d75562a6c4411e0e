import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore

/// An SDK upgrade shows in the timeline; one that loses the record's tags or attributes is a
/// warning naming them and the known cause (R1.4; SDK-FACTS "Across SDK majors").
@Suite("SDK upgrades")
struct UpgradeTests {
  static func body(_ version: String, tags: [String], attributes: [String: String]) -> String {
    sdkBody(device: "UP", platform: "iOS", tags: tags, attributes: attributes, uuid: "U")
      .replacingOccurrences(of: #""sdk_Version":"10.0.0""#, with: #""sdk_Version":"\#(version)""#)
  }

  @Test("7.6.1 to 8.0.5 with the tags and attributes gone: the migration gap, named with its fix")
  func lostInTheGap() throws {
    var rig = JudgeRig(
      userAgent: "MarketingCloudSdk/7.6.1 (iOS 16.5; en_US; Apple/iPhone14,2) com.example.app/1.0")
    try rig.send(0, Self.body("7.6.1", tags: ["ALL", "sports"], attributes: ["Tier": "gold"]), 201)
    let findings = try rig.send(3_600, Self.body("8.0.5", tags: [], attributes: [:]), 201)
    let warning = try #require(findings.first { $0.code == .sdkUpgradeLostData })
    #expect(warning.severity == .warning && warning.rule == "R1.4")
    #expect(warning.message.contains("7.6.1 to 8.0.5") && warning.message.contains("sports"))
    #expect(warning.message.contains("Tier") && warning.message.contains("known cause"))
    #expect(warning.fix?.contains("8.0.7") == true)
    let entry = try #require(rig.watch.devices["UP"]?.registrations.last)
    #expect(entry.changes.contains("SDK upgraded 7.6.1 -> 8.0.5"), "\(entry.changes)")
  }

  @Test(
    "an iOS upgrade outside the gap (8.0.5 to 8.0.9, 8.0.5 to 8.0.6, 8.1.4 to 9.0.1) that loses data blames no cause that cannot apply",
    arguments: [("8.0.5", "8.0.9"), ("8.0.5", "8.0.6"), ("8.1.4", "9.0.1"), ("7.6.1", "8.0.7")])
  func lostOutsideTheGap(from: String, to: String) throws {
    var rig = JudgeRig(
      userAgent: "MarketingCloudSdk/\(from) (iOS 16.5; en_US; Apple/iPhone14,2) com.example.app/1.0"
    )
    try rig.send(0, Self.body(from, tags: ["ALL", "sports"], attributes: ["Tier": "gold"]), 201)
    let findings = try rig.send(3_600, Self.body(to, tags: [], attributes: [:]), 201)
    let warning = try #require(findings.first { $0.code == .sdkUpgradeLostData })
    #expect(warning.message.contains("\(from) to \(to)") && warning.message.contains("sports"))
    #expect(!warning.message.contains("known cause:"), "\(warning.message)")
    #expect(warning.message.contains("no SDK cause is known"), "\(warning.message)")
    #expect(warning.fix?.contains("8.0.7") == false, "\(warning.fix ?? "no fix")")
    #expect(warning.fix?.contains("do not clear the app's data") == true)
  }

  @Test("an upgrade that keeps the record, or a tag dropped without one: no upgrade warning")
  func kept() throws {
    var rig = JudgeRig(
      userAgent: "MarketingCloudSdk/9.0.0 (iOS 16.5; en_US; Apple/iPhone14,2) com.example.app/1.0")
    try rig.send(0, Self.body("9.0.0", tags: ["ALL", "a"], attributes: ["K": "v"]), 201)
    let upgraded = try rig.send(
      3_600, Self.body("10.0.0", tags: ["ALL", "a"], attributes: ["K": "v"]), 201)
    #expect(!upgraded.contains { $0.code == .sdkUpgradeLostData })
    let dropped = try rig.send(7_200, Self.body("10.0.0", tags: ["ALL"], attributes: [:]), 201)
    #expect(!dropped.contains { $0.code == .sdkUpgradeLostData })
  }

  @Test("a downgrade is named one; on Android the iOS cause is not blamed")
  func downgradeAndAndroid() throws {
    var rig = JudgeRig(
      userAgent: "MarketingCloudSdk/9.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0")
    let android = { (version: String, tags: [String]) in
      sdkBody(device: "UP", tags: tags, uuid: "U")
        .replacingOccurrences(
          of: #""sdk_Version":"10.0.0""#, with: #""sdk_Version":"\#(version)""#)
    }
    try rig.send(0, android("9.0.0", ["ALL", "sports"]), 201)
    let findings = try rig.send(3_600, android("8.2.1", ["ALL"]), 201)
    let entry = try #require(rig.watch.devices["UP"]?.registrations.last)
    #expect(entry.changes.contains("SDK downgraded 9.0.0 -> 8.2.1"), "\(entry.changes)")
    let warning = try #require(findings.first { $0.code == .sdkUpgradeLostData })
    #expect(warning.message.contains("went back from 9.0.0 to 8.2.1"))
    #expect(!warning.message.contains("iOS 8.0") && warning.message.contains("Android"))
    #expect(warning.fix?.contains("do not clear the app's data") == true)
  }
}
