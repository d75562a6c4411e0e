import Foundation
import OutboundHTTP

/// The receiver's answers, for the MCP tools that read devices: through the one bounded fetch
/// every third party is asked with (`BoundedFetch`: one deadline over the whole answer, so a
/// receiver that dribbles a byte a second cannot hold a tool; a size past which an answer is
/// not read; a status line below 100 refused, never a trap).
struct ReceiverFetch: Sendable {
  /// The most of one answer read. Tools answer at most `RegScopeTools.answerLimit`, but a
  /// page of devices or a device's field stories is read whole first, then told in short or
  /// refused with how to ask for less.
  static let largestAnswer = 16 << 20

  typealias Answer = BoundedFetch.Answer
  typealias Failure = BoundedFetch.Failure

  let receiver: URL
  /// Seconds from sending the request to the last byte of the answer.
  let deadline: Double
  private let fetch: BoundedFetch

  init(
    receiver: URL, deadline: Double,
    transport: @escaping BoundedFetch.Transport = BoundedFetch.network
  ) {
    self.receiver = receiver
    self.deadline = deadline
    fetch = BoundedFetch(deadline: deadline, largest: Self.largestAnswer, transport: transport)
  }

  func get(_ path: String) async -> Result<Answer, Failure> {
    let base = receiver.absoluteString
    let url = (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + path
    return await execute(BoundedFetch.Request(url: url))
  }

  /// The answer whole, or why not, within `deadline` whatever the receiver does.
  func execute(_ request: BoundedFetch.Request) async -> Result<Answer, Failure> {
    await fetch.send(request)
  }
}
