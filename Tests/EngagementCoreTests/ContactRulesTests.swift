import Foundation
import RegistrationCore
import TestSupport
import Testing

@testable import EngagementCore

/// S3, S4 and R8 as the server's processing and the fleet's households both decide them.
@Suite("the contact rules")
struct ContactRulesTests {
  static func payload(key: String?) throws -> RegistrationPayload {
    let field = key.map { #","subscriberKey":"\#($0)""# } ?? ""
    return try JSONDecoder().decode(
      RegistrationPayload.self,
      from: Data(#"{"deviceID":"D","etAppId":"app","platform":"iOS"\#(field)}"#.utf8))
  }

  @Test("S3: the sent key first, then the device's contact, then the token holder's; else none")
  func contactOrder() throws {
    let sent = try Self.payload(key: "  alice  ")
    #expect(
      ContactRules.contact(sent: sent, current: "bob", tokenHolderContact: "carol") == "alice")
    let anonymous = try Self.payload(key: nil)
    #expect(
      ContactRules.contact(sent: anonymous, current: "bob", tokenHolderContact: "carol") == "bob")
    #expect(
      ContactRules.contact(sent: anonymous, current: nil, tokenHolderContact: "carol") == "carol")
    // R8: nothing names one, so processing makes one up.
    #expect(ContactRules.contact(sent: anonymous, current: nil, tokenHolderContact: nil) == nil)
    let blank = try Self.payload(key: "   ")
    #expect(ContactRules.contact(sent: blank, current: nil, tokenHolderContact: nil) == nil)
  }

  @Test("S4: the contact a device left is orphaned only when no device is left in it")
  func orphans() {
    #expect(ContactRules.orphaned(previous: "a", now: "b", devicesLeftIn: { _ in 0 }) == "a")
    #expect(ContactRules.orphaned(previous: "a", now: "b", devicesLeftIn: { _ in 1 }) == nil)
    #expect(ContactRules.orphaned(previous: "a", now: "a", devicesLeftIn: { _ in 0 }) == nil)
    #expect(ContactRules.orphaned(previous: nil, now: "b", devicesLeftIn: { _ in 0 }) == nil)
  }

  @Test(
    "the book: a device moves between contacts, leaves the old one empty, and is made up for once")
  func book() throws {
    var book = ContactBook()
    #expect(book.accept(try Self.payload(key: nil), deviceID: "A"))
    #expect(!book.accept(try Self.payload(key: nil), deviceID: "A"))
    #expect(!book.accept(try Self.payload(key: "alice"), deviceID: "A"))
    #expect(!book.accept(try Self.payload(key: "alice"), deviceID: "B"))
    #expect(book.devicesOf["made-up:A"] == [])
    #expect(book.hasOtherDevices("alice", than: "A") && !book.hasOtherDevices("bob", than: "A"))
    book.accept(try Self.payload(key: "bob"), deviceID: "B")
    #expect(!book.hasOtherDevices("alice", than: "A"))
  }
}
