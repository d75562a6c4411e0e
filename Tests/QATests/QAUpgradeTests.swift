import EngagementCore
import Foundation
import QA
import RegistrationCore
import TestSupport
import Testing

/// The QA plan sdk-upgrade (#29 item 3): its expectation passes when the registration after an
/// SDK upgrade keeps the record, and fails, naming what was lost and the fix, when it does not.
@Suite("QA: an SDK upgrade keeps the record")
struct QAUpgradeTests {
  static func device(_ sends: [(Double, String, [String])]) -> DeviceWatch.Device {
    var watch = DeviceWatch(makeToken: { "t" })
    for (at, version, tags) in sends {
      let text = sdkBody(device: "U", platform: "iOS", tags: tags, uuid: "U")
        .replacingOccurrences(
          of: #""sdk_Version":"10.0.0""#, with: #""sdk_Version":"\#(version)""#)
      _ = watch.record(
        ReceivedRegistration(
          deviceID: "U", payload: try? WireDecoding.payload(from: Data(text.utf8)).get(),
          body: Array(text.utf8),
          facts: RequestFacts(
            userAgent:
              "MarketingCloudSdk/\(version) (iOS 16.5; en_US; Apple/iPhone14,2) com.example.app/1.0"
          ),
          at: Instant(at), status: 201, retryAfter: nil,
          server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
    }
    return watch.devices["U"]!
  }

  @Test("kept: pass with the upgraded registration as evidence; lost: fail with what and the fix")
  func decide() throws {
    let kept = Self.device([
      (0, "9.0.3", ["ALL", "qa-upgrade"]), (3_600, "10.0.0", ["ALL", "qa-upgrade"]),
    ])
    let pass = try #require(
      QAJudge.decide(.upgradeKeepsData, device: kept, since: 1, runStart: 0))
    #expect(pass.verdict == .pass)
    #expect(
      pass.evidence.first?.contains("SDK upgraded 9.0.3 -> 10.0.0") == true, "\(pass.evidence)")
    let lost = Self.device([(0, "7.6.1", ["ALL", "qa-upgrade"]), (3_600, "8.0.6", [])])
    let fail = try #require(
      QAJudge.decide(.upgradeKeepsData, device: lost, since: 1, runStart: 0))
    #expect(fail.verdict == .fail)
    #expect(fail.evidence.contains { $0.contains("qa-upgrade") && $0.contains("8.0.7") }, "\(fail)")
    // No upgrade yet: undecided.
    let same = Self.device([(0, "9.0.3", ["ALL"]), (3_600, "9.0.3", ["ALL", "x"])])
    #expect(QAJudge.decide(.upgradeKeepsData, device: same, since: 1, runStart: 0) == nil)
  }

  @Test("the built-in plan sdk-upgrade parses and ends on the upgrade and no violation")
  func plan() throws {
    let plan = try #require(BuiltInPlans.plan("sdk-upgrade"))
    let expectations = plan.steps.compactMap { step -> QAExpectation? in
      if case .expect(let expectation) = step.action { return expectation }
      return nil
    }
    #expect(expectations.suffix(2) == [.upgradeKeepsData, .noViolation])
  }
}
