import GRDB
import RegistrationCore
import Testing

@testable import RegistrationEngine

/// Each row's columns are spelled once, in its `CodingKeys`: what it writes must be exactly
/// the columns the schema made (a store on disk from any version keeps those names), or every
/// save fails, or a column is left behind.
@Suite("the store's columns")
struct StoreColumnsTests {
  static let device = DeviceFields(
    deviceID: "D", registrationId: "", etAppId: "app", platform: .android,
    environment: .demo(.android))

  static func written(_ row: some EncodableRecord) throws -> Set<String> {
    Set(try row.databaseDictionary.keys)
  }

  static func rows() throws -> [(table: String, columns: Set<String>)] {
    let at = Instant(1)
    return [
      (
        RecordRow.databaseTableName,
        try written(RecordRow(ContactRecord(contactKey: "k", device: device)))
      ),
      (
        PendingChangeRow.databaseTableName,
        try written(
          PendingChangeRow(
            PendingChange(seq: 1, target: .initial, firstAt: at, lastAt: at, summary: "s")))
      ),
      (SchedulerRow.databaseTableName, try written(SchedulerRow(SchedulerState()))),
      (
        RetryRow.databaseTableName,
        try written(
          RetryRow(
            RetryState(
              failures: 1, nextAttemptAt: at, failedAt: at, lastStatus: 503, lastError: nil,
              needsFix: false)))
      ),
      (
        AcknowledgedRow.databaseTableName,
        try written(
          AcknowledgedRow(
            AcknowledgedRegistration(
              payload: RegistrationPayload(), hash: "h", at: at, status: 201)))
      ),
      (
        SendHistoryRow.databaseTableName,
        try written(
          SendHistoryRow(
            SendRecord(
              sendID: 1, attempt: 1, reason: .initial, startedAt: at, finishedAt: at,
              status: 201, error: nil, hash: "h", body: "{}")))
      ),
    ]
  }

  @Test("every row writes exactly its table's columns, as the schema names them")
  func rowsMatchSchema() throws {
    let store = try RegistrationStore.inMemory()
    let rows = try Self.rows()
    #expect(rows.count == 6)
    for (table, columns) in rows {
      let schema = try store.database.read { db in
        Set(try db.columns(in: table).map(\.name))
      }
      #expect(columns == schema, "\(table)")
    }
  }
}
