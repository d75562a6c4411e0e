import Foundation
import TestSupport
import Testing

@testable import TenantAPI

/// The tenant client's readers held to the answers as Salesforce documents them
/// (`Tests/Fixtures/documented`, whose README cites each page), not only to our stand-in.
@Suite("the tenant's documented answers, read")
struct DocumentedAnswersTests {
  @Test("retrieveAllAttributeSetDefinitions: MobilePush Demographics and its attributes' names")
  func attributeSets() throws {
    let page = try JSONDecoder().decode(
      AttributeSetPage.self,
      from: Data(try DocumentedAnswers.bytes(DocumentedAnswers.attributeSetDefinitions)))
    #expect(page.count == 2 && page.items.count == 2)
    let set = try #require(page.items.first { $0.isMobilePushDemographics })
    #expect(set.shown == "MobilePush Demographics")
    #expect((set.attributes ?? []).compactMap(\.shown) == ["FirstName", "Interests"])
  }

  @Test("the token's 401: OAuth's error and description")
  func invalidClient() throws {
    let refusal = TenantClient.oauthError(
      try DocumentedAnswers.bytes(DocumentedAnswers.tokenInvalidClient))
    #expect(refusal.error == "invalid_client")
    #expect(refusal.detail == "Client authentication failed.")
  }

  @Test("Rate Limiting Errors: the 429's message")
  func rateLimited() throws {
    let body = try DocumentedAnswers.bytes(DocumentedAnswers.rateLimited)
    #expect(TenantClient.message(body) == "Rate limit exceeded. Please retry after some time.")
  }

  @Test("the address search's answer: identifiers wrapped, the push address and its values")
  func addressSearch() throws {
    let read = try TenantClient.addresses(
      from: try DocumentedAnswers.bytes(DocumentedAnswers.addressSearch), what: "POST search")
    #expect(read.unread.isEmpty && read.addresses.count == 2)
    let push = try #require(read.addresses.first { $0.isPush })
    #expect(push.contactKey == DocumentedAnswers.searchContactKey)
    #expect(push.addressKey == DocumentedAnswers.searchDeviceID)
    #expect(push.values == ["FirstName": "Ada", "Interests": "sports"] && push.unread.isEmpty)
    let email = try #require(read.addresses.first { !$0.isPush })
    #expect(email.addressTypeID == 1 && email.values == [:])
  }

  @Test("the stand-in tenant answers the documented token and its answer is read (expires_in 1079)")
  func token() async throws {
    let tenant = try StandInTenant()
    defer { tenant.stop() }
    let client = TenantClient(
      try TenantFile.load(path: try tenant.file()).credentials, deadline: Double(HangGuard.seconds))
    let demographics = try await client.demographics()
    #expect(demographics.setName == "MobilePush Demographics")
    #expect(await client.tokensRequested == 1)
  }
}
