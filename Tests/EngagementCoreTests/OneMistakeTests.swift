import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore

/// A finding says the whole of what one mistake costs, once: an early resend is one violation,
/// and a reserved key the table lacks says the registration is lost with it.
@Suite("one mistake, one finding that says what it costs")
struct OneMistakeTests {
  @Test(
    "R3.2/R3.4 the same record resent early is one violation, not two",
    arguments: [androidAgent, iosAgent])
  func earlyResendCountsOnce(agent: String) throws {
    var rig = JudgeRig(userAgent: agent)
    try rig.send(0, sdkBody(tags: ["ALL", "sports"], uuid: "a"), 201)
    let findings = try rig.send(5, sdkBody(tags: ["ALL", "sports"], uuid: "b"), 201)
    #expect(findings.count == 1, "\(findings.map(\.code))")
    let finding = try #require(findings.first)
    #expect(finding.severity == .violation && finding.code == .throttleViolated)
    #expect(finding.message.contains("same record the server acknowledged"), "\(finding.message)")
    #expect(rig.violations.count == 1)
  }

  @Test("R3.4 a resend after the throttle is still its own note, and a run of them a violation")
  func lateResendStillFound() throws {
    var rig = JudgeRig(userAgent: androidAgent)
    try rig.send(0, sdkBody(uuid: "a"), 201)
    #expect(try rig.send(61, sdkBody(uuid: "b"), 201).map(\.code) == [.unchangedResent])
    let again = try rig.send(122, sdkBody(uuid: "c"), 201)
    #expect(again.map(\.code) == [.unchangedResent] && again.first?.severity == .violation)
  }

  @Test("R2.5/S5 a reserved key missing from the table says the whole registration is lost")
  func reservedAndUndefined() throws {
    var rig = JudgeRig(userAgent: androidAgent, defined: ["FirstName"])
    let findings = try rig.send(
      0, sdkBody(attributes: ["contactKey": "u123", "FirstName": "Ada"]), 201)
    #expect(findings.map(\.code) == [.reservedAttribute], "\(findings.map(\.code))")
    let message = try #require(findings.first?.message)
    #expect(message.contains("contactKey"))
    #expect(message.contains("whole registration") && message.contains("contact key"), "\(message)")
    #expect(message.contains("push token"))
  }

  @Test("R2.5 a reserved key the table defines costs only itself")
  func reservedButDefined() throws {
    var rig = JudgeRig(userAgent: androidAgent, defined: ["FirstName", "contactKey"])
    let findings = try rig.send(0, sdkBody(attributes: ["contactKey": "u123"]), 201)
    #expect(findings.map(\.code) == [.reservedAttribute])
    #expect(findings.first?.message.contains("whole registration") == false)
  }

  @Test("S5 an undefined attribute says what the rejection takes with it")
  func undefinedSaysWhatIsLost() throws {
    var rig = JudgeRig(userAgent: androidAgent, defined: ["FirstName"])
    let findings = try rig.send(0, sdkBody(attributes: ["Plan": "gold"]), 201)
    let message = try #require(findings.first { $0.code == .undefinedAttribute }?.message)
    #expect(message.contains("Plan") && message.contains("whole registration"))
    #expect(message.contains("contact key") && message.contains("push token"))
  }
}
