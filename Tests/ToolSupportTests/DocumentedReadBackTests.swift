import EngagementCore
import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import TenantAPI
@testable import ToolSupport

/// The read-back held to the reference page's own answer (`Tests/Fixtures/documented/
/// address-search-by-contact-key.json`: identifiers wrapped as `{"value": ...}`, values by
/// `definitionKey` and `innerValue`), and to every mutation of it a tenant could plausibly
/// send: what RegScope cannot read is "not read", never "not there" or "NOT ARRIVED"; only a
/// device truly absent is.
@Suite("the read-back against the documented answer")
struct DocumentedReadBackTests {
  static let device = DocumentedAnswers.searchDeviceID
  static let key = DocumentedAnswers.searchContactKey

  /// The registration the documented answer holds: FirstName Ada, Interests sports, user-1.
  static func sent() throws -> ServerRegistration {
    let body = sdkBody(
      device: device, key: key, attributes: ["FirstName": "Ada", "Interests": "sports"])
    guard case .success(let payload) = WireDecoding.payload(from: Data(body.utf8)) else {
      throw CocoaError(.coderReadCorrupt)
    }
    return ServerRegistration(
      id: 1, receivedAt: Instant(0), processAt: Instant(300), status: .processed,
      payload: payload)
  }

  /// What the read-back says of `answer` (a JSON object): its outcome, or nil when the answer
  /// is no answer at all (said as the tenant's problem, never a verdict).
  static func outcome(of answer: Any) throws -> ReadBack? {
    let data = try JSONSerialization.data(withJSONObject: answer)
    guard let read = try? TenantClient.addresses(from: Array(data), what: "POST search") else {
      return nil
    }
    let holding = TenantClient.holding(read, contactKey: key, deviceID: device)
    let sent = try sent()
    return ReadBack.compare(
      sent, holding: holding, registrations: [sent], askedAt: Instant(900), window: 900,
      defined: nil)
  }

  @Test(
    "the page's own answer: the device arrived, each value held as sent, the email address not counted"
  )
  func documentedAnswer() throws {
    let read = try TenantClient.addresses(
      from: try DocumentedAnswers.bytes(DocumentedAnswers.addressSearch), what: "POST search")
    guard case .found(let address, let others) = read.pushAddress(of: Self.device, under: Self.key)
    else {
      Issue.record("the documented push address was not found: \(read)")
      return
    }
    #expect(address.addressKey == Self.device && address.contactKey == Self.key)
    #expect(address.values == ["FirstName": "Ada", "Interests": "sports"])
    #expect(address.status == "Active" && others == 0, "the email address (type 1) is no push")
    let readBack = try #require(
      try Self.outcome(of: DocumentedAnswers.object(DocumentedAnswers.addressSearch)))
    #expect(readBack.outcome == .arrived, "\(readBack.summary)")
    #expect(readBack.headline == "tenant: #1 arrived (contact user-1, 2 attributes as sent)")
    #expect(!readBack.summary.contains("opted"), "status is validity: \(readBack.summary)")
    #expect(readBack.summary.contains("address status Active: its validity, not opt-in"))
  }

  @Test("the device truly absent is NOT ARRIVED; another device's address is one other")
  func trulyAbsent() throws {
    var answer = try DocumentedAnswers.object(DocumentedAnswers.addressSearch)
    var addresses = try #require(answer["addresses"] as? [[String: Any]])
    addresses[0]["addressKey"] = ["value": "ANOTHER-DEVICE"]
    answer["addresses"] = addresses
    let moved = try #require(try Self.outcome(of: answer))
    #expect(moved.outcome == .notArrived, "\(moved.summary)")
    #expect(moved.summary.contains("it holds 1 other push address"), "\(moved.summary)")
    answer["addresses"] = [addresses[1]]
    let none = try #require(try Self.outcome(of: answer))
    #expect(none.outcome == .notArrived && none.headline.contains("NOT ARRIVED"))
  }

  @Test("an address key in a shape RegScope does not read: not read, with what came")
  func unreadableKey() throws {
    var answer = try DocumentedAnswers.object(DocumentedAnswers.addressSearch)
    var addresses = try #require(answer["addresses"] as? [[String: Any]])
    addresses[0]["addressKey"] = ["id": "\u{1b}[31m5C5A"]
    answer["addresses"] = addresses
    let readBack = try #require(try Self.outcome(of: answer))
    #expect(readBack.outcome == .notRead)
    #expect(readBack.fields.allSatisfy { $0.verdict == .notRead })
    #expect(readBack.summary.contains(#"addressKey {"id":"\u{1B}[31m5C5A"}"#) == false)
    #expect(
      readBack.summary.contains("addressKey {"), "an excerpt of what came: \(readBack.summary)")
    #expect(!readBack.summary.contains("\u{1b}"), "escaped: \(readBack.summary)")
    #expect(!readBack.summary.contains("NOT ARRIVED") && !readBack.summary.contains("not there"))
  }

  /// One random change a tenant's answer could carry that RegScope may not read: an
  /// identifier wrapped again or unwrapped, a field renamed, moved, dropped, or replaced by a
  /// shape no reader knows. Never a different readable value (that is another device).
  static func mutate(_ value: Any, _ random: inout SplitMix64, depth: Int = 0) -> Any {
    switch value {
    case var object as [String: Any]:
      guard let name = object.keys.sorted().randomElement(using: &random) else { return object }
      let inner = object[name] ?? NSNull()
      switch random.next() % 6 {
      case 0: object[name] = ["value": inner]
      case 1: object[name] = (inner as? [String: Any])?["value"] ?? inner
      case 2:
        object[name] = nil
        object[name.uppercased() + "_renamed"] = inner
      case 3: object[name] = nil
      case 4: object[name] = [["unknown": true]]
      default: object[name] = mutate(inner, &random, depth: depth + 1)
      }
      return object
    case var list as [Any]:
      guard !list.isEmpty else { return list }
      switch random.next() % 3 {
      case 0: list.shuffle(using: &random)
      case 1: list.append(["opaque": ["value": 1]])
      default:
        let index = Int(random.next() % UInt64(list.count))
        list[index] = mutate(list[index], &random, depth: depth + 1)
      }
      return list
    default:
      return value
    }
  }

  @Test("no mutation of the documented answer says a held device did not arrive (2,000 seeds)")
  func mutationsNeverNegative() throws {
    let documented = try DocumentedAnswers.object(DocumentedAnswers.addressSearch)
    var outcomes: [ReadBack.Outcome: Int] = [:]
    for seed in 0..<2_000 {
      var random = SplitMix64(seed: UInt64(seed))
      var answer: Any = documented
      for _ in 0..<(1 + Int(random.next() % 3)) { answer = Self.mutate(answer, &random) }
      guard let readBack = try Self.outcome(of: answer) else { continue }
      outcomes[readBack.outcome, default: 0] += 1
      let negative = readBack.fields.filter {
        [.notThere, .notArrived, .heldOther].contains($0.verdict)
      }
      #expect(
        !readBack.outcome.isFailure && negative.isEmpty,
        "seed \(seed): \(readBack.summary)")
      if readBack.outcome.isFailure { break }
    }
    // The mutations reach both sides: some still read whole, some not read.
    #expect((outcomes[.arrived] ?? 0) > 100 && (outcomes[.notRead] ?? 0) > 100, "\(outcomes)")
  }
}
