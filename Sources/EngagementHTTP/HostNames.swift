import Foundation
import NIOCore

/// Which `Host` a request may name (`FrontRules.refusal`): a web page can point a name it
/// controls at 127.0.0.1 (DNS rebinding) and then read the devices, inject faults or adopt the
/// app through the visitor's browser. IP addresses (the emulator's 10.0.2.2, a LAN address,
/// loopback) and `localhost` are always accepted; other names only when given (`--host-name`).
enum HostNames {
  /// The host of `authority`, without its port: `[::1]:8080` is `::1`.
  static func hostPart(of authority: String) -> Substring {
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
      return authority[authority.index(after: authority.startIndex)..<close]
    }
    if authority.filter({ $0 == ":" }).count > 1 { return Substring(authority) }
    return authority.split(separator: ":", maxSplits: 1).first ?? ""
  }

  static func accepts(_ authority: String, names: Set<String>) -> Bool {
    if isLoopbackAsUsual(authority) { return true }
    // Only `host[:port]` (RFC 9110 7.2): `127.0.0.1:8080@evil.com` names no port, and whatever
    // reads it next may take evil.com for the host.
    guard isWellFormed(authority) else { return false }
    var host = String(hostPart(of: authority)).lowercased()
    if host.hasSuffix(".") { host.removeLast() }
    if host.isEmpty || host == "localhost" || names.contains(host) { return true }
    // An address, not a name: no one else's DNS can point it here.
    return (try? SocketAddress(ipAddress: host, port: 0)) != nil
  }

  /// `host[:port]`: a name or IPv4 address of letters, digits, `-`, `.` and `_`, or an IPv6
  /// address in brackets; a port of one to five digits.
  static func isWellFormed(_ authority: String) -> Bool {
    var rest = Substring(authority)
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]") else { return false }
      let inside = rest[rest.index(after: rest.startIndex)..<close]
      guard !inside.isEmpty, inside.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
        return false
      }
      rest = rest[rest.index(after: close)...]
    } else {
      let host = rest.prefix { $0 != ":" }
      guard
        host.unicodeScalars.allSatisfy({
          ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
            || $0 == "-" || $0 == "." || $0 == "_"
        })
      else { return false }
      rest = rest.dropFirst(host.count)
    }
    guard let colon = rest.first else { return true }
    let port = rest.dropFirst()
    return colon == ":" && (1...5).contains(port.count)
      && port.allSatisfy { $0.isASCII && $0.isNumber }
  }

  /// `127.0.0.1`, `localhost` or `[::1]`, with or without a port: what nearly every request
  /// names, accepted without parsing an address.
  static func isLoopbackAsUsual(_ authority: String) -> Bool {
    let utf8 = authority.utf8
    for host in ["127.0.0.1", "localhost", "[::1]"] {
      guard utf8.starts(with: host.utf8) else { continue }
      let port = utf8.dropFirst(host.utf8.count)
      guard let colon = port.first else { return true }
      return colon == UInt8(ascii: ":") && port.count > 1 && port.count <= 6
        && port.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
    return false
  }
}
