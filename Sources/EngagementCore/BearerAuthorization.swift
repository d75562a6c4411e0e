/// Checks an `Authorization` header against the app's access token (S1). The scheme is
/// matched without regard to case (RFC 9110 §11.1: `bearer T` is as good as `Bearer T`), and
/// the token is compared in time that does not depend on where it first differs.
public enum BearerAuthorization {
  /// Nil when the header carries the token; otherwise why not, in words a client can act on.
  public static func problem(_ header: String?, token: String) -> String? {
    guard let header else {
      return "the Authorization header is missing; send \"Bearer <access token>\""
    }
    // Every request carries it: the usual shape is read without splitting or lowercasing.
    if let matches = bearerTokenMatches(header, token: token) {
      return matches ? nil : "the bearer token is not this app's"
    }
    let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else {
      return "the Authorization header must be \"Bearer <access token>\""
    }
    let credential = parts[1].drop { $0 == " " }
    guard constantTimeEqual(credential.utf8, token.utf8) else {
      return "the bearer token is not this app's"
    }
    return nil
  }

  /// For a header that starts "Bearer " (in any case), whether the rest, less its leading
  /// spaces, is the token, compared in constant time; nil for any other shape.
  private static func bearerTokenMatches(_ header: String, token: String) -> Bool? {
    // Read through the strings' bytes in place: walking `String.UTF8View` index by index was
    // a twentieth of checking a registration.
    var (header, token) = (header, token)
    return header.withUTF8 { header in
      let scheme: StaticString = "bearer "
      let schemeCount = scheme.utf8CodeUnitCount
      guard header.count >= schemeCount else { return nil }
      for offset in 0..<schemeCount {
        let byte = header[offset]
        guard (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == scheme.utf8Start[offset]
        else { return nil }
      }
      var index = schemeCount
      while index < header.count, header[index] == UInt8(ascii: " ") { index += 1 }
      // Nothing after the scheme: the general reading says which shape that is.
      guard index < header.count else { return nil }
      let credential = UnsafeBufferPointer(rebasing: header[index...])
      return token.withUTF8 { constantTimeEqual(credential, $0) }
    }
  }

  private static func constantTimeEqual(
    _ left: some Collection<UInt8>, _ right: some Collection<UInt8>
  ) -> Bool {
    let (leftCount, rightCount) = (left.count, right.count)
    var difference = UInt8(truncatingIfNeeded: leftCount ^ rightCount)
    var (a, b) = (left.makeIterator(), right.makeIterator())
    for _ in 0..<max(leftCount, rightCount) {
      difference |= (a.next() ?? 0) ^ (b.next() ?? 0)
    }
    return difference == 0 && leftCount == rightCount
  }
}
