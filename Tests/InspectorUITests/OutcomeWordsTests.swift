import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import InspectorUI

/// One name per outcome (#51): every way a read-back can end, rendered where a user reads it
/// (the device list, the timeline row, the Fields pane's rows and a field's story, the event
/// line) says it with the one word `ReadBack.Outcome.word` gives, and never with one of the
/// names the walk found for the same outcome ("waiting", "NOT THERE", "not as sent", "not
/// arrived" beside "NOT ARRIVED").
@Suite("one word per read-back outcome in every view")
struct OutcomeWordsTests {
  static func text(_ line: Line) -> String { line.map(\.0).joined() }

  static func sent(
    _ id: Int, at: Double = 0, key: String = "user-1", attributes: [String: String]
  ) throws -> ServerRegistration {
    let body = sdkBody(device: "PIXEL-V", key: key, attributes: attributes)
    let payload = try JSONDecoder().decode(RegistrationPayload.self, from: Data(body.utf8))
    return ServerRegistration(
      id: id, receivedAt: Instant(at), processAt: Instant(at + 300), status: .processed,
      payload: payload)
  }

  /// A read-back ending in each outcome.
  static func readBacks() throws -> [(ReadBack, [ServerRegistration])] {
    let one = try sent(1, attributes: ["FirstName": "Ada", "Plan": "gold"])
    let newer = try sent(2, at: 10, key: "user-2", attributes: ["FirstName": "Ada"])
    func address(_ values: [String: String]?, unread: [String] = []) -> TenantHolding.Address {
      TenantHolding.Address(status: "Active", values: values, unreadValues: unread)
    }
    func compare(
      _ holding: TenantHolding, _ all: [ServerRegistration] = [one], defined: Set<String>? = nil
    )
      -> (ReadBack, [ServerRegistration])
    {
      (
        ReadBack.compare(
          one, holding: holding, registrations: all, askedAt: Instant(900), window: 900,
          defined: defined), all
      )
    }
    return [
      compare(
        TenantHolding(contactKey: "user-1", address: address(["FirstName": "Ada", "Plan": "gold"]))),
      compare(
        TenantHolding(contactKey: "user-1", address: address(["FirstName": "Bob", "Plan": "gold"]))),
      compare(TenantHolding(contactKey: "user-1", address: address(["FirstName": "Ada"]))),
      compare(TenantHolding(contactKey: "user-1", address: nil)),
      compare(TenantHolding(contactKey: "user-1", address: nil), defined: ["FirstName"]),
      compare(TenantHolding(contactKey: "user-1", address: nil), [one, newer]),
      compare(TenantHolding(contactKey: "user-1", address: nil, unread: [#"addressKey [1]"#])),
      compare(TenantHolding(contactKey: "user-1", address: address(nil, unread: ["no valueSets"]))),
      compare(
        TenantHolding(
          contactKey: "user-1", address: address(["FirstName": "Ada"], unread: ["valueSets[1] 7"]))),
      (
        ReadBack.unanswered(
          one, askedAt: Instant(900), window: 900, contactKey: nil, problem: ReadBack.noContactKey),
        [one]
      ),
      (
        ReadBack.unanswered(
          one, askedAt: Instant(900), window: 900, contactKey: "user-1",
          problem: "the tenant could not answer: late"), [one]
      ),
    ]
  }

  /// Every outcome name the walk found said for the same outcome: none may appear.
  static let aliases = ["NOT THERE", "not as sent", "not arrived", "held as sent (contact"]

  @Test("each outcome is said with its word, and no other name, in each view")
  func oneWord() throws {
    var seen: Set<ReadBack.Outcome> = []
    for (readBack, registrations) in try Self.readBacks() {
      seen.insert(readBack.outcome)
      let word = readBack.outcome.word
      var watch = DeviceWatch(makeToken: seededTokens(1))
      let body = sdkBody(device: "PIXEL-V", key: "user-1", attributes: ["FirstName": "Ada"])
      _ = watch.record(
        ReceivedRegistration(
          deviceID: "PIXEL-V",
          payload: try JSONDecoder().decode(RegistrationPayload.self, from: Data(body.utf8)),
          body: Array(body.utf8), facts: RequestFacts(userAgent: androidAgent), at: Instant(0),
          status: 201, retryAfter: nil,
          server: ServerFacts(definedAttributes: nil, contactStillHasOtherDevices: { _ in false })))
      watch.recordReadBack(readBack, of: "PIXEL-V")
      let device = try #require(watch.devices["PIXEL-V"])
      let model = receiverModel(watch, now: 901)
      var said: [String] = [readBack.summary, readBack.headline]
      said += ReceiverPanes.timeline(model, device).map(Self.text)
      let listed = ReceiverPanes.findingsSummary(device).0
      said.append(listed)
      var stories = DeviceFieldStories.build(
        deviceID: "PIXEL-V", registrations: registrations,
        facts: FieldFacts(
          device: nil, otherDevices: [], orphaned: [], definedAttributes: nil, profile: .android,
          nextSend: nil))
      stories.attach(readBack)
      said += FieldsPane.list(stories, chosen: nil, width: 160).lines.map(Self.text)
      for story in stories.fields {
        said += FieldsPane.storyLines(story, width: 160).map(Self.text)
      }
      let all = said.joined(separator: "\n")
      #expect(readBack.headline.contains(word), "\(readBack.outcome): \(readBack.headline)")
      #expect(readBack.summary.contains(word), "\(readBack.outcome): \(readBack.summary)")
      if readBack.outcome.isFailure {
        #expect(listed == "tenant: " + word, "the device list: \(listed)")
      }
      for alias in Self.aliases {
        #expect(!all.contains(alias), "\(readBack.outcome) said as \"\(alias)\": \(all)")
      }
      // A field's own word is one of the verdicts' words, and says the outcome where the
      // outcome is about the whole address.
      for story in stories.fields {
        guard let tenant = story.tenant else { continue }
        let words = Set(ReadBack.Verdict.allCases.map(\.word) + [ReadBack.Outcome.moved.word])
        #expect(words.contains(tenant.word), "\(tenant.word)")
      }
    }
    #expect(seen == Set(ReadBack.Outcome.allCases), "every outcome reached: \(seen)")
  }
}
