import RegistrationCore

/// A fault injected for QA (S7). One fault at a time; it lasts for `remaining` requests, until
/// `until`, or until cleared.
public struct ServerFault: Hashable, Sendable, Codable {
  public enum Kind: Hashable, Sendable, Codable {
    /// Answer this status (500, 503, 429, ...), with Retry-After when given.
    case status(Int, retryAfter: Double?)
    /// Never answer: the client's time-out fires.
    case hang
    /// Close the connection without answering.
    case drop
    /// Refuse connections: the server is down.
    case down
  }

  public var kind: Kind
  public var remaining: Int?
  public var until: Instant?

  public init(kind: Kind, remaining: Int? = nil, until: Instant? = nil) {
    self.kind = kind
    self.remaining = remaining
    self.until = until
  }

  public var summary: String {
    var text: String
    switch kind {
    case .status(let status, let retryAfter):
      text = "answer \(status)"
      if let retryAfter { text += " with Retry-After \(NumberText.compact(retryAfter)) s" }
    case .hang: text = "hang past the client's time-out"
    case .drop: text = "drop the connection"
    case .down: text = "down: connections refused"
    }
    if let remaining { text += " for the next \(remaining) request\(remaining == 1 ? "" : "s")" }
    if let until { text += " until t=\(until.seconds)" }
    return text
  }
}

/// What the server does with one request.
public enum ServerAnswer: Hashable, Sendable {
  case respond(status: Int, body: [UInt8], retryAfter: Double?)
  case hang
  case drop
  case refuse
}
