import Testing

@testable import EngagementCore

/// S1: the access token is read from `Authorization: Bearer TOKEN`; the usual shape is read on
/// a fast path, which must answer exactly as the general reading does.
@Suite("the bearer token, read on every request")
struct BearerAuthorizationTests {
  static let token = "load-token-0123456789"

  @Test(
    "accepted: the token after Bearer in any case, after any spaces",
    arguments: [
      "Bearer load-token-0123456789", "bearer load-token-0123456789",
      "BEARER   load-token-0123456789", "BeArEr load-token-0123456789",
    ])
  func accepted(_ header: String) {
    #expect(BearerAuthorization.problem(header, token: Self.token) == nil)
  }

  @Test(
    "refused: another token, a prefix, a longer one, an empty one, no scheme, another scheme",
    arguments: [
      ("Bearer load-token-012345678", "not this app's"),
      ("Bearer load-token-01234567890", "not this app's"),
      ("Bearer load-token-0123456788", "not this app's"),
      ("Bearer Load-token-0123456789", "not this app's"),
      ("Bearer  ", "not this app's"),
      ("Bearer", "must be"),
      ("Bearer ", "must be"),
      ("Basic load-token-0123456789", "must be"),
      ("load-token-0123456789", "must be"),
      ("Bearer\tload-token-0123456789", "must be"),
      ("Bearé load-token-0123456789", "must be"),
    ])
  func refused(_ header: String, _ why: String) {
    let problem = BearerAuthorization.problem(header, token: Self.token)
    #expect(problem?.contains(why) == true, "\(header): \(problem ?? "accepted")")
  }

  @Test("no header at all says it is missing")
  func missing() {
    #expect(BearerAuthorization.problem(nil, token: Self.token)?.contains("missing") == true)
  }
}
