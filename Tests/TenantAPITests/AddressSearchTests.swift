import Foundation
import TestSupport
import Testing

@testable import TenantAPI

/// The Contacts API's address search by contact key (docs/tenant.md), against the stand-in:
/// the request as written there, the answer's `addresses[]` read, `valueSets` read in every
/// shape it names and nil (not read) in any other, a 429 said with its wait.
@Suite("the tenant's address search", .timeLimit(.minutes(10)))
struct AddressSearchTests {
  static func client(_ tenant: StandInTenant) throws -> TenantClient {
    TenantClient(
      try TenantFile.load(path: try tenant.file()).credentials, deadline: Double(HangGuard.seconds))
  }

  @Test(
    "the search posts the contact key with the bearer token; the push address and its values come back"
  )
  func search() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    tenant.hold("user-1", [.init(deviceID: "PIXEL-S", values: ["FirstName": "Ada"])])
    let found = try await Self.client(tenant).addresses(contactKey: "user-1")
    #expect(tenant.searches.count == 1)
    #expect(tenant.searches.first?["filterConditionOperator"] as? String == "Is")
    #expect(tenant.searches.first?["filterConditionValue"] as? String == "user-1")
    #expect(tenant.restCalls.isEmpty, "the search is not a definitions call")
    let address = try #require(found.addresses.first)
    #expect(found.addresses.count == 1 && address.isPush && address.addressKey == "PIXEL-S")
    #expect(address.contactKey == "user-1" && address.status == "Active")
    #expect(address.values == ["FirstName": "Ada"] && address.unread.isEmpty)
    let none = try await Self.client(tenant).addresses(contactKey: "nobody")
    #expect(none.addresses.isEmpty && none.unread.isEmpty)
    #expect(none.pushAddress(of: "PIXEL-S", under: "nobody") == .absent(others: 0))
  }

  @Test("valueSets in each named shape; anything else is not read, with what came")
  func shapes() throws {
    let nested: Any = [
      ["values": [["name": "A", "value": "1"], ["definitionKey": "B", "innerValue": 2]]]
    ]
    #expect(TenantClient.values(from: nested).values == ["A": "1", "B": "2"])
    let flat: Any = [["definitionName": "C", "value": true]]
    #expect(TenantClient.values(from: flat).values == ["C": "true"])
    let map: Any = ["D": "x", "E": 3]
    #expect(TenantClient.values(from: map).values == ["D": "x", "E": "3"])
    let wrapped: Any = [
      ["values": [["definitionKey": ["value": "F"], "innerValue": ["value": "7"]]]]
    ]
    #expect(TenantClient.values(from: wrapped).values == ["F": "7"])
    let opaque = TenantClient.values(from: [["opaque": true]] as Any)
    #expect(opaque.values == nil && opaque.unread == [#"valueSets[0] {"opaque":true}"#])
    #expect(TenantClient.values(from: "text" as Any).values == nil)
    #expect(TenantClient.values(from: nil).unread == ["no valueSets"])
    let partial = TenantClient.values(
      from: [["values": [["definitionKey": "G", "innerValue": "g"], ["odd": 1]]]] as Any)
    #expect(partial.values == ["G": "g"] && partial.unread.count == 1, "\(partial)")
    let null = TenantClient.values(
      from: [["values": [["definitionKey": "H", "innerValue": NSNull()]]]] as Any)
    #expect(null.values == [:] && null.unread.isEmpty, "a null value is no value, read")
  }

  @Test("an answer without addresses is said as not what the documentation describes")
  func malformed() throws {
    #expect(throws: TenantFailure.self) {
      try TenantClient.addresses(from: Array(#"{"items":[]}"#.utf8), what: "POST search")
    }
    let huge = Array(#"{"addresses":[{"addressTypeID":1e300,"addressKey":"X"}]}"#.utf8)
    let read = try TenantClient.addresses(from: huge, what: "POST search")
    #expect(
      read.addresses.first?.addressTypeID == nil, "a type past any Int is no type, not a trap")
  }

  @Test("a search page of millions of values is refused before it is decoded, saying why")
  func valuesCounted() throws {
    let zeros = Array(repeating: "0", count: 2_100_000).joined(separator: ",")
    #expect {
      _ = try TenantClient.addresses(
        from: Array(#"{"addresses":[\#(zeros)]}"#.utf8), what: "POST search")
    } throws: { error in
      "\(error)".contains("the page holds about 2,100,002 JSON values (at most 2,000,000 read)")
    }
  }

  @Test("pages followed ($page, $pageSize) until the device's address is read; past ten, not read")
  func pages() async throws {
    let tenant = try StandInTenant(.pagedSearch(pageSize: 3, filler: 7))
    defer { tenant.stop() }
    tenant.hold("user-1", [.init(deviceID: "PIXEL-P", values: ["FirstName": "Ada"])])
    let found = try await Self.client(tenant).addresses(contactKey: "user-1", lookingFor: "PIXEL-P")
    #expect(tenant.searches.count == 3, "the device is on the third page of 3")
    guard case .found(let address, let others) = found.pushAddress(of: "PIXEL-P", under: "user-1")
    else {
      Issue.record("not found across pages: \(found)")
      return
    }
    #expect(address.values == ["FirstName": "Ada"] && others == 7)

    let endless = try StandInTenant(.pagedSearch(pageSize: 2, filler: 40))
    defer { endless.stop() }
    endless.hold("user-1", [.init(deviceID: "PIXEL-P", values: [:])])
    let cut = try await Self.client(endless).addresses(contactKey: "user-1", lookingFor: "PIXEL-P")
    #expect(endless.searches.count == TenantClient.mostAddressPages)
    guard case .notRead(let why, _) = cut.pushAddress(of: "PIXEL-P", under: "user-1") else {
      Issue.record("pages left unread must not read as absent: \(cut)")
      return
    }
    #expect(why.first?.hasPrefix("pages past 10") == true, "\(why)")
  }

  @Test("a tenant that answers page 1 when asked for page 2: the rest not read, not absent")
  func samePageAgain() throws {
    let page = TenantClient.AddressPage(
      addresses: [TenantAddress(addressKey: "X")], unread: [], pageNumber: 1, pageSize: 1,
      total: 5)
    #expect(page.more(after: 1, asked: 2)?.refusal?.contains("asked for page 2") == true)
    #expect(page.more(after: 5, asked: 1) == nil, "all read")
    let short = TenantClient.AddressPage(
      addresses: [], unread: [], pageNumber: nil, pageSize: 50, total: nil)
    #expect(short.more(after: 0, asked: 1) == nil, "a short page is the last")
  }

  /// What a search of a stand-in that answers 429 throws: its errorcode, its wait, the words
  /// it is said with, and how many searches were made. Nil (and an issue) when it answered.
  static func throttled(_ retryAfter: String, errorcode: String = "50100") async throws -> (
    code: Int?, after: Double?, said: String, searches: Int
  )? {
    let tenant = try StandInTenant(.throttleSearch(retryAfter, errorcode: errorcode))
    defer { tenant.stop() }
    let client = try Self.client(tenant)
    do throws(TenantFailure) {
      _ = try await client.addresses(contactKey: "user-1")
      Issue.record("a throttled search answered")
    } catch {
      guard case .throttled(_, let code, let after) = error else {
        Issue.record("\(error)")
        return nil
      }
      return (code, after, "\(error)", tenant.searches.count)
    }
    return nil
  }

  @Test("a 429 with a long Retry-After is said with its wait, not waited out")
  func throttled() async throws {
    let found = try #require(try await Self.throttled("120"))
    #expect(found.code == 50100 && found.after == 120)
  }

  @Test("Retry-After: nan names no wait: said as throttled, with none")
  func nanRetryAfter() async throws {
    let found = try #require(try await Self.throttled("nan"))
    #expect(found.after == nil)
    #expect(!found.said.contains("in nan"), "\(found.said)")
    #expect(found.searches == 1, "a nan wait is not waited out")
  }

  @Test(
    "a Retry-After past any Int (1e20, 99999999999999999999) is said, not trapped",
    arguments: ["1e20", "99999999999999999999", "-1"])
  func hugeRetryAfter(_ text: String) async throws {
    let found = try #require(try await Self.throttled(text))
    #expect(found.said.contains("is throttled (429, errorcode 50100)"), "\(found.said)")
    #expect(!found.said.contains("in -"), "a negative wait is none: \(found.said)")
  }

  @Test("an errorcode past any Int is no code, not a wrapped number")
  func hugeErrorCode() async throws {
    let found = try #require(try await Self.throttled("120", errorcode: "1e30"))
    #expect(found.code == nil)
    #expect(found.said.contains("(429)"), "\(found.said)")
  }
}
