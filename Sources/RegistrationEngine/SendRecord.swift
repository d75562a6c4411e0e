import RegistrationCore

/// One send and its answer, kept in the store's history.
public struct SendRecord: Hashable, Sendable, Codable {
  public var sendID: Int
  public var attempt: Int
  public var reason: ScheduleReason
  public var startedAt: Instant
  public var finishedAt: Instant
  public var status: Int?
  public var error: String?
  public var hash: String
  public var body: String

  public init(
    sendID: Int, attempt: Int, reason: ScheduleReason, startedAt: Instant, finishedAt: Instant,
    status: Int?, error: String?, hash: String, body: String
  ) {
    self.sendID = sendID
    self.attempt = attempt
    self.reason = reason
    self.startedAt = startedAt
    self.finishedAt = finishedAt
    self.status = status
    self.error = error
    self.hash = hash
    self.body = body
  }
}
