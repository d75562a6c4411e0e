/// The one reading of "is this host this machine?" behind every decision that lets something
/// through only on loopback: plain `http://` to a tenant (the secret and the token would
/// otherwise cross the network in clear), and a receiver's `--listen` (`--any-app`, the demo
/// app's public token, the exposure warning).
///
/// Strict on purpose: a host is loopback only when it is written exactly as one of
///
/// - an IPv4 address in 127.0.0.0/8 as four decimal numbers (`127.0.0.1`, `127.1.2.3`): each
///   0-255, without leading zeros (`0127` reads as octal to some parsers), nothing before or
///   after;
/// - `localhost` (any ASCII case), without a final dot;
/// - `[::1]` (or `::1`, as a bind address is written).
///
/// Anything else is not, however a system's parser might read it: `127.1`, `0x7f000001`,
/// `2130706433`, `0:0:0:0:0:0:0:1`, `127.0.0.1.evil.example`, and above all any text after
/// the address (`inet_aton` stops at a space, so `127.0.0.1 .evil.example` read as loopback
/// there while a resolver looks up the whole name) or any percent-encoding
/// (`127.0.0.1%20.evil.example`). A loopback written oddly is refused, never a name let in.
public enum LoopbackHost {
  public static func contains(_ host: String) -> Bool {
    let bytes = Array(host.utf8)
    if bytes == Array("[::1]".utf8) || bytes == Array("::1".utf8) { return true }
    if bytes.count == 9,
      zip(bytes, "localhost".utf8).allSatisfy({ lowercased($0) == $1 })
    {
      return true
    }
    return isLoopbackDottedQuad(bytes)
  }

  /// `127.d.d.d`, each part one to three decimal digits, 0-255, no leading zero.
  static func isLoopbackDottedQuad(_ bytes: [UInt8]) -> Bool {
    let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 4 else { return false }
    var values: [Int] = []
    for part in parts {
      guard (1...3).contains(part.count),
        part.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
        part.count == 1 || part.first != UInt8(ascii: "0")
      else { return false }
      let value = part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
      guard value <= 255 else { return false }
      values.append(value)
    }
    return values[0] == 127
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }
}
