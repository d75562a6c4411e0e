import RegistrationCore

/// A registration as `DeviceWatch.record` is told of it: what came in, how it was answered
/// and what the server knew when it judged it. Built where the request was handled (the
/// server's actor, a capture's judge).
public struct ReceivedRegistration {
  public var deviceID: String
  /// The body as read; nil when it could not be (a refusal's unreadable body).
  public var payload: RegistrationPayload?
  public var body: [UInt8]
  public var facts: RequestFacts
  public var at: Instant
  /// The answer's status; nil when none was given (a hung request).
  public var status: Int?
  public var retryAfter: RetryAfter.Value?
  public var server: ServerFacts
  /// The token the answer carried when another hands them out (a relayed tenant's).
  public var issuedToken: String?
  /// Set when the server refused the request (S1): judged as the setup's, not the SDK's.
  public var refusal: Refusal?
  /// The answer was RegScope's own (its relay could not reach the tenant, or was full).
  public var local: Bool

  public init(
    deviceID: String, payload: RegistrationPayload?, body: [UInt8], facts: RequestFacts,
    at: Instant, status: Int?, retryAfter: RetryAfter.Value? = nil, server: ServerFacts,
    issuedToken: String? = nil, refusal: Refusal? = nil, local: Bool = false
  ) {
    self.deviceID = deviceID
    self.payload = payload
    self.body = body
    self.facts = facts
    self.at = at
    self.status = status
    self.retryAfter = retryAfter
    self.server = server
    self.issuedToken = issuedToken
    self.refusal = refusal
    self.local = local
  }
}
