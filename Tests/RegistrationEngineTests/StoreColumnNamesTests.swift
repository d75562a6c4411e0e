import GRDB
import Testing

@testable import RegistrationEngine

/// One column named `property`, saved as GRDB's own `.convertToSnakeCase` names it.
private struct GRDBSpelling: EncodableRecord, Encodable {
  static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
  let property: String

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(0, forKey: Key(stringValue: property))
  }

  static func column(of property: String) throws -> String? {
    try GRDBSpelling(property: property).databaseDictionary.keys.first
  }
}

/// The store's column names, worked out once per property as GRDB's snake case spells them:
/// rows are read back with GRDB's `.convertFromSnakeCase`, so a name spelled otherwise would
/// fail every save or read (the round-trip tests hold the rest).
@Suite("store column names")
struct StoreColumnNamesTests {
  @Test(
    "camel case to snake case, acronyms as one word, as GRDB spells them",
    arguments: [
      ("id", "id"), ("sendID", "send_id"), ("nextSendID", "next_send_id"),
      ("lastAttemptAt", "last_attempt_at"), ("retryAfterUntil", "retry_after_until"),
      ("URLValue", "url_value"), ("sentWithoutContactKey", "sent_without_contact_key"),
    ])
  func names(property: String, column: String) throws {
    #expect(try GRDBSpelling.column(of: property) == column, "GRDB's own spelling")
    #expect(StoreColumnNames.convert(property) == column)
    // The first call may work it out or find it; the second always finds it in the cache.
    #expect(StoreColumnNames.snakeCase(property) == column)
    #expect(StoreColumnNames.snakeCase(property) == column, "the cached answer is the same")
  }
}
