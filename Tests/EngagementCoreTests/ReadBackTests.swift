import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore

/// "Did it arrive?" (#46): what the tenant holds compared with what the app sent, field by
/// field, and when each lookup is made (`ReadBackQueue`: after the window, a few a minute, a
/// 429's wait honoured). Pure, in virtual seconds.
@Suite("the tenant's read-back: the comparison and its schedule")
struct ReadBackTests {
  static func registration(
    _ id: Int, at: Double, key: String? = "user-1", attributes: [String: String]
  ) throws -> ServerRegistration {
    let body = sdkBody(device: "PIXEL-R", key: key, attributes: attributes)
    guard case .success(let payload) = WireDecoding.payload(from: Data(body.utf8)) else {
      throw CocoaError(.coderReadCorrupt)
    }
    return ServerRegistration(
      id: id, receivedAt: Instant(at), processAt: Instant(at + 300), status: .processed,
      payload: payload)
  }

  static func held(_ values: [String: String]?) -> TenantHolding {
    TenantHolding(
      contactKey: "user-1", address: TenantHolding.Address(status: "Active", values: values))
  }

  @Test("held as sent: the address under the key, every attribute the same")
  func heldAsSent() throws {
    let sent = try Self.registration(1, at: 0, attributes: ["FirstName": "Ada", "Tier": "2"])
    let readBack = ReadBack.compare(
      sent, holding: Self.held(["FirstName": "Ada", "Tier": "2", "Other": "x"]),
      registrations: [sent], askedAt: Instant(900), window: 900, defined: nil)
    #expect(readBack.allHeld)
    #expect(readBack.headline == "tenant: #1 arrived (contact user-1, 2 attributes as sent)")
    #expect(readBack.outcome == .arrived)
    #expect(readBack.fields.map(\.verdict) == [.heldAsSent, .heldAsSent, .heldAsSent])
    #expect(
      readBack.summary
        == "tenant read-back for #1 (sent 00:00:00 UTC, asked 15 min after its 2xx): arrived: contact user-1 holds this device's push address (address status Active: its validity, not opt-in); all 2 attributes as sent"
    )
  }

  @Test("held with another value: which registration sent it, or none of this device's")
  func heldOther() throws {
    let first = try Self.registration(1, at: 0, attributes: ["Plan": "gold", "Tier": "1"])
    let second = try Self.registration(2, at: 60, attributes: ["Plan": "platinum", "Tier": "2"])
    let readBack = ReadBack.compare(
      second, holding: Self.held(["Plan": "gold", "Tier": "9"]), registrations: [first, second],
      askedAt: Instant(960), window: 900, defined: nil)
    #expect(!readBack.allHeld)
    #expect(
      readBack.headline
        == #"tenant: #2 NOT AS SENT: 0 of 2 attributes as sent; Plan held as "gold" (sent by #1), not "platinum""#
    )
    let plan = try #require(readBack.fields.first { $0.name == "Plan" })
    #expect(plan.verdict == .heldOther && plan.held == "gold" && plan.heldFrom == 1)
    let tier = try #require(readBack.fields.first { $0.name == "Tier" })
    #expect(tier.verdict == .heldOther && tier.heldFrom == nil)
    #expect(
      readBack.summary.contains(
        #"0 of 2 attributes as sent; Plan held as "gold" (sent by #1), not "platinum""#))
    #expect(readBack.summary.contains("sent by none of this device's registrations RegScope holds"))
  }

  @Test("not arrived: S5 named only when the registration carried a name outside the table")
  func notArrived() throws {
    let sent = try Self.registration(1, at: 0, attributes: ["FirstName": "Ada", "Plan": "gold"])
    let missing = TenantHolding(contactKey: "user-1", address: nil, otherPushAddresses: 1)
    let undefined = ReadBack.compare(
      sent, holding: missing, registrations: [sent], askedAt: Instant(900), window: 900,
      defined: ["FirstName"])
    #expect(undefined.fields.allSatisfy { $0.verdict == .notArrived })
    #expect(undefined.outcome == .notArrived)
    #expect(undefined.headline == "tenant: #1 NOT ARRIVED under contact user-1 (S5: Plan)")
    #expect(
      undefined.summary
        == "tenant read-back for #1 (sent 00:00:00 UTC, asked 15 min after its 2xx): NOT ARRIVED: contact user-1 holds no push address for this device (it holds 1 other push address); processing rejects the whole registration for Plan, not in the tenant's demographics (S5)"
    )
    let noCause = ReadBack.compare(
      sent, holding: missing, registrations: [sent], askedAt: Instant(900), window: 900,
      defined: ["FirstName", "Plan"])
    #expect(!noCause.summary.contains("S5"))
    #expect(noCause.summary.contains("the tenant gives no reason"))
  }

  @Test(
    "values the answer does not let RegScope read are not read, never missing; a cleared value held as nothing"
  )
  func notRead() throws {
    let sent = try Self.registration(1, at: 0, attributes: ["FirstName": "Ada", "Nickname": ""])
    let opaque = ReadBack.compare(
      sent, holding: Self.held(nil), registrations: [sent], askedAt: Instant(900), window: 900,
      defined: nil)
    #expect(opaque.fields.filter { $0.kind == .attribute }.allSatisfy { $0.verdict == .notRead })
    #expect(opaque.summary.contains("not compared"))
    #expect(!opaque.allHeld)
    let cleared = ReadBack.compare(
      sent, holding: Self.held(["FirstName": "Ada"]), registrations: [sent],
      askedAt: Instant(900), window: 900, defined: nil)
    #expect(cleared.allHeld)
  }

  @Test("a value with control characters is escaped in the summary")
  func escaped() throws {
    let sent = try Self.registration(1, at: 0, attributes: ["FirstName": "Ada"])
    let readBack = ReadBack.compare(
      sent, holding: Self.held(["FirstName": "\u{1B}[31mEve"]), registrations: [sent],
      askedAt: Instant(900), window: 900, defined: nil)
    #expect(!readBack.summary.contains("\u{1B}"))
    #expect(readBack.summary.contains(#"\e[31mEve"#))
  }

  @Test(
    "a value past 4 KB held whole is as sent (the server keeps it cut); quoted values are clipped")
  func longValue() throws {
    var sent = try Self.registration(1, at: 0, attributes: ["Interests": "x"])
    let long = String(repeating: "x", count: 5_000)
    sent.payload.attributes = [.init(key: "Interests", value: ProcessingRules.kept(long))]
    let held = ReadBack.compare(
      sent, holding: Self.held(["Interests": long]), registrations: [sent],
      askedAt: Instant(900), window: 900, defined: nil)
    #expect(held.allHeld)
    let other = ReadBack.compare(
      sent, holding: Self.held(["Interests": String(repeating: "y", count: 5_000)]),
      registrations: [sent], askedAt: Instant(900), window: 900, defined: nil)
    #expect(!other.allHeld)
    #expect(other.summary.utf8.count < 600, "\(other.summary.utf8.count) bytes")
    #expect(other.headline.utf8.count < 400)
  }

  @Test("values under none of the names sent are not read, never 'not held'")
  func unmatchedNames() throws {
    let sent = try Self.registration(1, at: 0, attributes: ["FirstName": "Ada", "Tier": "2"])
    let readBack = ReadBack.compare(
      sent, holding: Self.held(["MobilePush_Demographics_FirstName": "Ada"]),
      registrations: [sent], askedAt: Instant(900), window: 900, defined: nil)
    #expect(readBack.fields.filter { $0.kind == .attribute }.allSatisfy { $0.verdict == .notRead })
    #expect(readBack.summary.contains("under names RegScope does not read"))
  }

  @Test(
    "an address held from before, the newest rejected for a name outside the table: S5 said first")
  func rejectedWithAddress() throws {
    let first = try Self.registration(1, at: 0, attributes: ["FirstName": "Ada"])
    let second = try Self.registration(2, at: 60, attributes: ["FirstName": "Bob", "Plan": "gold"])
    let readBack = ReadBack.compare(
      second, holding: Self.held(["FirstName": "Ada"]), registrations: [first, second],
      askedAt: Instant(960), window: 900, defined: ["FirstName"])
    #expect(
      readBack.summary.contains(
        "(sent 00:01:00 UTC, asked 15 min after its 2xx): NOT ARRIVED: processing rejects the whole registration for Plan, not in the tenant's demographics (S5); contact user-1 holds this device's push address (address status Active: its validity, not opt-in) from an earlier registration"
      ), "\(readBack.summary)")
    #expect(
      readBack.headline
        == "tenant: #2 NOT ARRIVED, rejected (S5: Plan); an earlier registration's values held")
  }

  @Test(
    "a value a newer registration sent is as sent; a newer contact key is the cause of a missing address"
  )
  func newer() throws {
    let first = try Self.registration(1, at: 0, key: "anon-1", attributes: ["Plan": "gold"])
    let second = try Self.registration(2, at: 10, key: "user-2", attributes: ["Plan": "platinum"])
    let fromNewer = ReadBack.compare(
      first, holding: Self.held(["Plan": "platinum"]), registrations: [first, second],
      askedAt: Instant(905), window: 900, defined: nil)
    let plan = try #require(fromNewer.fields.first { $0.name == "Plan" })
    #expect(plan.verdict == .heldAsSent && plan.heldFrom == 2)
    let moved = ReadBack.compare(
      first, holding: TenantHolding(contactKey: "anon-1", address: nil),
      registrations: [first, second],
      askedAt: Instant(905), window: 900, defined: nil)
    #expect(
      moved.summary.contains("the newer #2 moved it to contact user-2 (R8.3)"), "\(moved.summary)")
    #expect(!moved.summary.contains("NOT ARRIVED") && moved.outcome == .moved)
    #expect(moved.headline == "tenant: #1 moved to contact user-2 by #2, not under anon-1")
    #expect(moved.fields.first?.cause == "the newer #2 moved the device to contact user-2 (R8.3)")
  }

  @Test(
    "#52: 100,000 held values against 2,000 attributes sent, each held under another case: linear work",
    .timeLimit(.minutes(10)))
  func largeComparison() throws {
    // Each name sent is held only under another case, so every lookup takes the folded path
    // the quadratic version paid for with a lowercasing of every held name (about 200 million
    // here: minutes, past the limit). Indexed once, it is a few hundred thousand.
    var sentValues: [String: String] = [:]
    for index in 0..<2_000 { sentValues["Attribute\(index)"] = "value-\(index)" }
    let sent = try Self.registration(1, at: 0, attributes: sentValues)
    var held: [String: String] = [:]
    for index in 0..<100_000 { held["attribute\(index)"] = "value-\(index)" }
    let readBack = ReadBack.compare(
      sent, holding: Self.held(held), registrations: [sent], askedAt: Instant(900), window: 900,
      defined: nil)
    #expect(readBack.outcome == .arrived, "\(readBack.headline)")
    #expect(readBack.fields.count == 2_001)
  }

  @Test("#52: a 100 KB contact key and value are quoted clipped with their length, not whole")
  func hugeKey() throws {
    let key = String(repeating: "k", count: 100_000)
    let sent = try Self.registration(
      1, at: 0, key: key, attributes: ["Plan": String(repeating: "v", count: 100_000)])
    let readBack = ReadBack.compare(
      sent, holding: TenantHolding(contactKey: key, address: nil), registrations: [sent],
      askedAt: Instant(900), window: 900, defined: nil)
    #expect(readBack.summary.count < 1_000, "\(readBack.summary.count) characters")
    #expect(readBack.summary.contains("…(100000 chars)"))
    let held = ReadBack.compare(
      sent,
      holding: TenantHolding(
        contactKey: key, address: TenantHolding.Address(values: ["Plan": "other"])),
      registrations: [sent], askedAt: Instant(900), window: 900, defined: nil)
    #expect(held.summary.count < 1_000 && held.headline.count < 1_000, "\(held.summary.count)")
  }

  @Test("the schedule: due a window after the first 2xx, a few a minute, a 429's wait honoured")
  func schedule() {
    var queue = ReadBackQueue(window: 900)
    for (index, device) in ["A", "B", "C", "D", "E", "F"].enumerated() {
      queue.answered(device, at: Instant(Double(index)))
    }
    queue.answered("A", at: Instant(100))
    #expect(queue.dueAt("A") == Instant(900), "a second 2xx does not push the lookup back")
    #expect(queue.take(now: Instant(899)) == nil)
    func ask(_ now: Double) -> String? {
      guard queue.mayAsk(now: Instant(now)), let taken = queue.take(now: Instant(now)) else {
        return nil
      }
      queue.asked(now: Instant(now))
      return taken.deviceID
    }
    var taken: [String] = []
    while let device = ask(960) { taken.append(device) }
    #expect(taken == ["A", "B", "C", "D"], "four a minute, oldest first")
    #expect(queue.nextWake(now: Instant(960)) == Instant(1_020))
    #expect(ask(1_020) == "E")
    queue.throttled("E", now: Instant(1_020), retryAfter: 120)
    let mayAsk = queue.mayAsk(now: Instant(1_100))
    #expect(!mayAsk, "paused by the 429")
    #expect(queue.nextWake(now: Instant(1_100)) == Instant(1_140))
    #expect(Set([ask(1_140), ask(1_140)]) == ["E", "F"])
    queue.throttled("F", now: Instant(2_000), retryAfter: 1e300)
    #expect(queue.dueAt("F") == Instant(2_000 + 86_400), "a wait past a day is a day")
    queue.throttled("G", now: Instant(3_000), retryAfter: .nan)
    #expect(
      queue.dueAt("G") == Instant(3_000 + ReadBackQueue.pauseWithoutRetryAfter),
      "Retry-After: nan is no wait named: a minute")
  }

  @Test("a device taken and put back waits on, keeping since when; it is not counted as asked")
  func waitForNewest() throws {
    var queue = ReadBackQueue(window: 900)
    queue.answered("A", at: Instant(0))
    let first = queue.take(now: Instant(900))
    let taken = try #require(first)
    #expect(taken.since == Instant(0))
    queue.wait(taken, until: Instant(1_500))
    #expect(queue.dueAt("A") == Instant(1_500))
    #expect(queue.take(now: Instant(1_499)) == nil)
    let again = queue.take(now: Instant(1_500))
    #expect(again?.since == Instant(0))
  }

  @Test("the queue is bounded: past the limit a device is counted, not queued")
  func bounded() {
    var queue = ReadBackQueue(window: 60)
    for index in 0..<(ReadBackQueue.pendingLimit + 5) {
      queue.answered("device-\(index)", at: .zero)
    }
    #expect(queue.waiting == ReadBackQueue.pendingLimit)
    #expect(queue.skipped == 5)
  }
}
