import Testing

@testable import RegistrationEngine

/// The store's column names, worked out once per property as GRDB's snake case spells them
/// (a wrong one would fail every save: the round-trip tests hold the rest).
@Suite("store column names")
struct StoreColumnNamesTests {
  @Test(
    "camel case to snake case, acronyms as one word",
    arguments: [
      ("id", "id"), ("sendID", "send_id"), ("nextSendID", "next_send_id"),
      ("lastAttemptAt", "last_attempt_at"), ("retryAfterUntil", "retry_after_until"),
      ("URLValue", "url_value"), ("sentWithoutContactKey", "sent_without_contact_key"),
    ])
  func names(property: String, column: String) {
    #expect(StoreColumnNames.convert(property) == column)
    #expect(StoreColumnNames.snakeCase(property) == column)
    #expect(StoreColumnNames.snakeCase(property) == column, "the cached answer is the same")
  }
}
