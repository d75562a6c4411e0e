import Clocks
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore
@testable import EngagementServer

/// "Why didn't my attribute arrive?" (#30): each field's story and its explanation, read from
/// a local server in virtual time after real processing (S2, S3, S4, S5, R2.5, R3.2, R8).
@Suite("each field's story, and why it did not arrive")
struct FieldStoryTests {
  struct Rig {
    let clock = VirtualClock()
    let server: LocalEngagementServer

    init(defined: Set<String>? = nil) throws {
      server = try LocalEngagementServer(
        settings: ServerSettings(
          appID: appID, accessToken: "token", processingDelay: 10, definedAttributes: defined),
        store: ServerStore.inMemory(), clock: clock)
    }

    /// A registration at `at` seconds, then processing of everything due by then.
    func send(_ at: Double, _ body: String, process: Bool = true, agent: String = androidAgent)
      async
    {
      clock.advance(to: Instant(at))
      _ = await server.receive(
        EngagementServerCore.validate(
          authorization: "Bearer token", body: Array(body.utf8),
          settings: server.validationSettings),
        facts: RequestFacts(userAgent: agent))
      if process {
        clock.advance(to: Instant(at + 10))
        await server.processDue()
      }
    }

    func story(_ device: String = "WATCH-1") async throws -> DeviceFieldStories {
      try #require(await server.fields(of: device))
    }

    func explain(_ device: String = "WATCH-1") async throws -> [String] {
      try #require(await server.explain(device))
    }
  }

  @Test("R2.5: an iOS app's HWID is renamed, never added to the attribute set (walk #51, item 1)")
  func reservedNeverDefined() async throws {
    let rig = try Rig(defined: ["FirstName", "FavoriteTeam"])
    await rig.send(
      0,
      sdkBody(platform: "iOS", key: "ada@example.com", attributes: ["HWID": "abc"]),
      agent: iosAgent)
    let explained = try await rig.explain().joined(separator: "\n")
    #expect(!explained.contains("add HWID"), "\(explained)")
    #expect(explained.contains("rename the attribute HWID"), "\(explained)")
  }

  @Test("R2.5: another field's story names the field its fix is about (walk #51, item 2)")
  func fixNamesItsField() async throws {
    let rig = try Rig(defined: ["FirstName", "Plan"])
    await rig.send(
      0, sdkBody(key: "ada@example.com", attributes: ["contactKey": "abc", "Plan": "gold"]))
    let story = try await rig.story()
    let plan = try #require(story.fields.first { $0.name == "Plan" })
    let told = FieldExplanation.sentences(plan, context: story.fixContext).joined(separator: " ")
    #expect(told.contains("Fix: stop sending contactKey as an attribute"), "\(told)")
    let explained = try await rig.explain().joined(separator: "\n")
    #expect(
      !explained.contains("Fix: set the contact key"), "the fix names contactKey: \(explained)")
  }

  @Test(
    "with the tenant's table, a fix points at the tenant's set, never at RegScope's local table")
  func tenantFix() {
    let local = FieldExplanation.fix(["Plan"])
    #expect(local.contains("--defined-attributes") && !local.contains("--tenant"))
    let tenant = FieldExplanation.fix(
      ["Plan"], context: FieldFixContext(tenantSet: "MobilePush Demographics"))
    #expect(tenant.hasPrefix("add Plan to MobilePush Demographics in Contact Builder"), "\(tenant)")
    #expect(!tenant.contains("--defined-attributes") && !tenant.contains("PUT /api/demographics"))
    let reserved = FieldExplanation.fix(
      ["HWID", "Plan"], context: FieldFixContext(extraReserved: ["HWID"]))
    #expect(reserved.hasPrefix("rename the attribute HWID") && reserved.contains("add Plan"))
  }

  @Test("S5: an attribute rejected with its registration because another is undefined")
  func rejectedWithItsRegistration() async throws {
    let rig = try Rig(defined: ["FirstName"])
    await rig.send(0, sdkBody(key: "ada@example.com", attributes: ["FirstName": "Ada"]))
    await rig.send(
      100, sdkBody(key: "ada@example.com", attributes: ["FirstName": "Bob", "Plan": "pro"]))
    let story = try await rig.story()
    let first = try #require(story.fields.first { $0.name == "FirstName" })
    #expect(first.events.map(\.value) == ["Ada", "Bob"])
    #expect(first.events.map(\.outcome) == [.accepted, .rejected])
    #expect(first.latest?.why?.contains("because Plan is not in the demographics table") == true)
    #expect(first.holds == "FirstName=Ada")
    let plan = try #require(story.fields.first { $0.name == "Plan" })
    #expect(
      plan.latest?.why
        == "rejected with its whole registration: Plan is not in the demographics table (S5)")
    #expect(plan.holds == nil)
    let sentences = try await rig.explain()
    #expect(
      sentences.first?.hasPrefix(
        "FirstName=Bob (00:01:40 UTC) was rejected with its whole registration because Plan is not in the demographics table (S5); the contact still has FirstName=Ada. Fix: add Plan to the app's attribute set"
      ) == true, "\(sentences)")
    #expect(sentences.contains { $0.hasPrefix("Plan=pro (00:01:40 UTC) was rejected") })
    // The contact key and the tags the contact already has are no news (the finding's
    // sentence says what a rejection costs, the contact key among it).
    #expect(
      !sentences.contains {
        !$0.hasPrefix("Warning") && ($0.contains("contact key") || $0.contains("tag ALL"))
      })
  }

  @Test("S2, S5: a change still waiting that processing will reject is said now, with the fix")
  func waitingToBeRejected() async throws {
    let rig = try Rig(defined: ["FirstName"])
    await rig.send(0, sdkBody(key: "ada@example.com", attributes: ["FirstName": "Ada"]))
    await rig.send(
      100, sdkBody(key: "ada@example.com", attributes: ["FirstName": "Bob", "Plan": "pro"]),
      process: false)
    let story = try await rig.story()
    let first = try #require(story.fields.first { $0.name == "FirstName" })
    #expect(first.latest?.outcome == .waiting)
    #expect(
      first.latest?.why
        == "received (201); processing at 00:01:50 UTC (S2) will reject it with its whole registration because Plan is not in the demographics table (S5)"
    )
    #expect(first.latest?.undefinedAttributes == ["Plan"])
    let plan = try #require(story.fields.first { $0.name == "Plan" })
    #expect(
      plan.latest?.why?.hasSuffix(
        "will reject it with its whole registration: Plan is not in the demographics table (S5)")
        == true)
    let sentences = try await rig.explain()
    #expect(
      sentences.contains {
        $0.hasPrefix(
          "FirstName=Bob (00:01:40 UTC) is received (201); processing at 00:01:50 UTC (S2) will reject it"
        )
          && $0.hasSuffix(
            "the contact still has FirstName=Ada. Fix: add Plan to the app's attribute set (on RegScope's server: --defined-attributes or PUT /api/demographics; on the tenant: MobilePush Demographics in Contact Builder), or stop sending it."
          )
      }, "\(sentences)")
    // Once processed, the same field reads as rejected.
    await rig.send(200, sdkBody(key: "ada@example.com", attributes: ["FirstName": "Ada"]))
    let later = try await rig.story()
    #expect(later.fields.first { $0.name == "Plan" }?.events.first?.outcome == .rejected)
  }

  @Test("R2.5 a reserved key; S2 a change still waiting; R3.2 when a change made now goes out")
  func reservedAndWaiting() async throws {
    let rig = try Rig()
    await rig.send(0, sdkBody(attributes: ["Tier": "gold"]))
    await rig.send(
      100, sdkBody(attributes: ["Tier": "platinum", "addressId": "7"]), process: false)
    let story = try await rig.story()
    let tier = try #require(story.fields.first { $0.name == "Tier" })
    #expect(tier.latest?.outcome == .waiting && tier.holds == "Tier=gold")
    let reserved = try #require(story.fields.first { $0.name == "addressId" })
    #expect(reserved.notes.contains { $0.contains("reserved word (R2.5)") })
    #expect(story.nextSend?.contains("R3.2") == true)
    let sentences = try await rig.explain()
    #expect(
      sentences.contains {
        $0.hasPrefix(
          "Tier=platinum (00:01:40 UTC) is received (201); processing at 00:01:50 UTC (S2): not on the contact yet; the contact still has Tier=gold"
        )
      }, "\(sentences)")
    #expect(sentences.contains { $0.hasPrefix("The key addressId is a reserved word") })
    #expect(sentences.last?.hasPrefix("A change made now goes out at the earliest") == true)
    // Long after, the wait is over: no "earliest at" a time already past.
    rig.clock.advance(to: Instant(100 + 3_600))
    let after = try await rig.explain()
    #expect(!after.contains { $0.contains("at the earliest") }, "\(after)")
  }

  @Test("S1 a device refused before any field arrived: explain says so first, with the fix")
  func refusedFirst() async throws {
    let rig = try Rig()
    rig.clock.advance(to: Instant(5))
    // As the HTTP front refuses it: the token first, the small body read to name the device.
    guard
      case .invalid(let answer, var refusal)? = EngagementServerCore.authorize(
        "Bearer wrong-token", settings: rig.server.validationSettings)
    else {
      Issue.record("a wrong token was not refused")
      return
    }
    refusal.payload = try WireDecoding.payload(
      from: Array(sdkBody(attributes: ["Tier": "gold"]).utf8)
    ).get()
    _ = await rig.server.receive(
      .invalid(answer, refusal: refusal), facts: RequestFacts(userAgent: androidAgent))
    let sentences = try await rig.explain()
    #expect(
      sentences.first?.hasPrefix("The server refused this device's registration once (S1, 401)")
        == true, "\(sentences)")
    #expect(
      sentences.first?.contains(
        "Fix: give the app the access token this receiver started with (its start line shows it, masked when it is your own)"
      ) == true)
  }

  @Test("R8.3 a contact key changed: the old contact orphaned, named in the key's story")
  func orphanedKey() async throws {
    let rig = try Rig()
    await rig.send(0, sdkBody(key: "first@example.com"))
    await rig.send(100, sdkBody(key: "second@example.com"))
    let story = try await rig.story()
    let key = try #require(story.fields.first { $0.kind == .contactKey })
    #expect(key.events.map(\.value) == ["first@example.com", "second@example.com"])
    #expect(key.holds == "second@example.com")
    #expect(key.notes.first?.contains("contact \"first@example.com\" was orphaned") == true)
    #expect(
      try await rig.explain().contains {
        $0.hasPrefix("Contact \"first@example.com\" was orphaned")
      })
  }

  @Test("S4 a second device of the same contact holds another value, and says so")
  func secondDevice() async throws {
    let rig = try Rig()
    await rig.send(
      0, sdkBody(device: "PHONE", key: "ada@example.com", attributes: ["Tier": "gold"]))
    await rig.send(
      100, sdkBody(device: "TABLET", key: "ada@example.com", attributes: ["Tier": "silver"]))
    let story = try await rig.story("PHONE")
    let tier = try #require(story.fields.first { $0.name == "Tier" })
    #expect(tier.notes == ["the contact's other device TABLET has Tier=silver"])
    #expect(
      try await rig.explain("PHONE").contains("The contact's other device TABLET has Tier=silver."))
  }

  @Test("every field accepted reads as one sentence; an unknown device has no story")
  func allAccepted() async throws {
    let rig = try Rig()
    await rig.send(0, sdkBody(attributes: ["Tier": "gold"]))
    let sentences = try await rig.explain()
    #expect(
      sentences.first?.hasPrefix("Processing accepted every registration of this device it read")
        == true)
    #expect(await rig.server.fields(of: "NOBODY") == nil)
  }
}
