/// Checks an `Authorization` header against the app's access token (S1). The scheme is
/// matched without regard to case (RFC 9110 §11.1: `bearer T` is as good as `Bearer T`), and
/// the token is compared in time that does not depend on where it first differs.
public enum BearerAuthorization {
  /// Nil when the header carries the token; otherwise why not, in words a client can act on.
  public static func problem(_ header: String?, token: String) -> String? {
    guard let header else {
      return "the Authorization header is missing; send \"Bearer <access token>\""
    }
    let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else {
      return "the Authorization header must be \"Bearer <access token>\""
    }
    let credential = parts[1].drop { $0 == " " }
    guard constantTimeEqual(Array(credential.utf8), Array(token.utf8)) else {
      return "the bearer token is not this app's"
    }
    return nil
  }

  private static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
    var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
    for index in 0..<max(left.count, right.count) {
      let a = index < left.count ? left[index] : 0
      let b = index < right.count ? right[index] : 0
      difference |= a ^ b
    }
    return difference == 0 && left.count == right.count
  }
}
