import Clocks
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// The explanation is told from the same facts as the findings (#42): what processing
/// rejected is never called accepted, a failed send is said, and every violation and warning
/// of the device is in it (S1, S2, S5, S7, R1.4, R3.2).
@Suite("explain tells the findings, refusals and processing results, never the opposite")
struct ExplainFromFactsTests {
  typealias Rig = FieldStoryTests.Rig

  @Test(
    "S5: Plan rejected, then only FirstName accepted: the rejection is said, not 'all accepted'")
  func rejectedThenAccepted() async throws {
    let rig = try Rig(defined: ["FirstName"])
    await rig.send(0, sdkBody(attributes: ["Plan": "gold"]))
    await rig.send(100, sdkBody(attributes: ["FirstName": "Ada"]))
    let sentences = try await rig.explain()
    #expect(!sentences.contains { $0.contains("accepted every registration") }, "\(sentences)")
    #expect(!sentences.contains { $0.contains("Every field") }, "\(sentences)")
    let plan = try #require(sentences.first { $0.hasPrefix("Plan=gold") }, "\(sentences)")
    #expect(plan.contains("was rejected with its whole registration"))
    #expect(plan.contains("it is no longer sent") && plan.contains("the contact has no Plan"))
    #expect(plan.contains("Fix: add Plan to the app's attribute set"))
    // The warning the judge raised for it is in the answer too.
    #expect(sentences.contains { $0.hasPrefix("Warning undefinedAttribute (once, S5)") })
  }

  @Test("R1.4: an SDK upgrade that lost the tags: the warning and its fix are in the answer")
  func upgradeLoss() async throws {
    let rig = try Rig()
    let version = { (body: String, to: String) in
      body.replacingOccurrences(of: #""sdk_Version":"10.0.0""#, with: #""sdk_Version":"\#(to)""#)
    }
    await rig.send(0, version(sdkBody(tags: ["ALL", "sports"]), "9.0.3"))
    await rig.send(3_600, sdkBody(tags: ["ALL"]))
    let sentences = try await rig.explain()
    let warning = try #require(
      sentences.first { $0.hasPrefix("Warning sdkUpgradeLostData") }, "\(sentences)")
    #expect(warning.contains("9.0.3 to 10.0.0") && warning.contains("sports"))
    #expect(warning.contains("Fix: "))
  }

  @Test("S7: three sends all answered 503: said as such, not only 'no registration'")
  func everySendFailed() async throws {
    let rig = try Rig()
    await rig.server.setFault(ServerFault(kind: .status(503, retryAfter: nil), remaining: 3))
    for at in [0.0, 60, 120] { await rig.send(at, sdkBody(tags: ["ALL", "news"])) }
    let sentences = try await rig.explain()
    #expect(
      sentences.first?.hasPrefix(
        "The server answered 503 to all 3 sends of this device, so it took none of them") == true,
      "\(sentences)")
  }

  @Test("S7: the newest send failed after one that arrived: its change is not on the server yet")
  func newestFailed() async throws {
    let rig = try Rig()
    await rig.send(0, sdkBody(tags: ["ALL"]))
    await rig.server.setFault(ServerFault(kind: .status(500, retryAfter: nil), remaining: 1))
    await rig.send(100, sdkBody(tags: ["ALL", "news"]))
    let sentences = try await rig.explain()
    #expect(
      sentences.first?.hasPrefix("The newest send was answered 500 (1 of 2 sends failed)") == true,
      "\(sentences)")
  }

  @Test("R3.2: a violation is in the answer with its fix, beside 'accepted' for processing")
  func violationSaid() async throws {
    let rig = try Rig()
    // The same record again, 5 s after the 201: no cause explains it (R3.2, R3.4).
    await rig.send(0, sdkBody(tags: ["ALL"]), process: false)
    await rig.send(5, sdkBody(tags: ["ALL"]))
    let sentences = try await rig.explain()
    #expect(sentences.contains { $0.hasPrefix("Violation throttleViolated (once, R3.2)") })
    #expect(sentences.contains { $0.contains("Fix: let the SDK decide when to register") })
  }

  @Test("S3: no contact key sent: the server's made-up contact is never called the contact key")
  func madeUpContact() async throws {
    let rig = try Rig()
    await rig.send(0, sdkBody(tags: ["ALL"]))
    let key = try #require(try await rig.story().fields.first { $0.kind == .contactKey })
    #expect(key.madeUp && key.holds != nil)
    #expect(FieldExplanation.holding(key).contains("made up"), "\(FieldExplanation.holding(key))")
    let named = try Rig()
    await named.send(0, sdkBody(key: "ada@example.com"))
    let held = try #require(try await named.story().fields.first { $0.kind == .contactKey })
    #expect(!held.madeUp && held.holds == "ada@example.com")
  }

  // MARK: The property

  /// One random request: a body (some attributes undefined, some tags, a contact key), after
  /// a random wait, sometimes the same body again, sometimes under a fault.
  struct Step: CustomStringConvertible {
    var wait: Double
    var attributes: [String: String]
    var tags: [String]
    var key: String?
    var fault: Int?
    var processAfter: Bool
    var description: String {
      "+\(wait) \(attributes) \(tags) \(key ?? "-") fault:\(fault.map(String.init) ?? "-") process:\(processAfter)"
    }
  }

  static func steps(seed: UInt64) -> [Step] {
    var random = SplitMix64(seed: seed)
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    return (0..<Int(3 + random.next() % 6)).map { _ in
      var attributes: [String: String] = [:]
      for name in ["FirstName", "Plan", "Tier", "contactKey"] where random.next() % 3 == 0 {
        attributes[name] = pick(["a", "b", ""])
      }
      return Step(
        wait: pick([1, 5, 30, 61, 120, 600]), attributes: attributes,
        tags: ["ALL"] + ["news", "vip"].filter { _ in random.next() % 2 == 0 },
        key: pick([nil, "ada@example.com", "bob@example.com"]),
        fault: random.next() % 5 == 0 ? pick([429, 500, 503]) : nil,
        processAfter: random.next() % 4 != 0)
    }
  }

  @Test(
    "property: no value processing rejected is called accepted, and every violation and warning is said",
    arguments: 1...60)
  func property(seed: UInt64) async throws {
    let rig = try Rig(defined: ["FirstName", "Tier"])
    let steps = Self.steps(seed: seed)
    var at = 0.0
    for step in steps {
      at += step.wait
      if let status = step.fault {
        await rig.server.setFault(
          ServerFault(kind: .status(status, retryAfter: nil), remaining: 1))
      }
      let body = sdkBody(key: step.key, tags: step.tags, attributes: step.attributes, uuid: "U")
      await rig.send(at, body, process: step.processAfter)
      // Processing moved the clock on by its delay.
      if step.processAfter { at += 10 }
    }
    let stories = try await rig.story()
    let sentences = try await rig.explain()
    let text = sentences.joined(separator: "\n")
    let context = "seed \(seed): \(steps)\n\(text)"
    let rejected = stories.fields.flatMap { story in
      story.events.filter { $0.outcome == .rejected }.map { (story, $0) }
    }
    if stories.registrationsRejected > 0 || !rejected.isEmpty {
      #expect(!text.contains("accepted every registration"), "\(context)")
    }
    // Each attribute with a value processing rejected and the contact never took (by the
    // events alone) has a sentence that says it was rejected.
    for story in stories.fields where story.kind == .attribute {
      let lost = story.events.filter { event in
        event.outcome == .rejected && event.value != nil
          && !story.events.contains { $0.value == event.value && $0.outcome == .accepted }
          // A cleared value ("") takes the attribute away: held as nothing.
          && story.holds != (event.value == "" ? nil : "\(story.name)=\(event.value ?? "")")
      }
      guard !lost.isEmpty else { continue }
      #expect(
        sentences.contains { $0.hasPrefix("\(story.name)=") && $0.contains("rejected") },
        "\(story.name) rejected but not said: \(context)")
    }
    // Never "accepted" of a value whose registration was rejected.
    for (story, event) in rejected where story.kind == .attribute {
      let label = FieldExplanation.label(story, event)
      #expect(
        !sentences.contains {
          $0.hasPrefix(label) && $0.contains("was accepted") && !$0.contains("rejected")
        },
        "\(label): \(context)")
    }
    let device = try #require(await rig.server.watchedDevice("WATCH-1"))
    for (code, severities) in device.codeSeverities
    where code != .refused && !severities.isDisjoint(with: [.violation, .warning]) {
      #expect(text.contains(" \(code.rawValue) ("), "\(code) missing: \(context)")
    }
  }
}
