import Foundation
import RegistrationCore
import SystemCalls

/// An installed package's client secret. It prints masked everywhere (description, debug
/// description, `dump`, interpolation); only the token request's body reads it whole.
public struct ClientSecret: Sendable, Equatable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  private let value: String

  public init(_ value: String) { self.value = value }

  /// The whole secret, for the body of `POST /v2/token` and nothing else.
  var revealed: String { value }

  public var masked: String { TokenText.masked(value) }
  public var description: String { masked }
  public var debugDescription: String { "ClientSecret(\(masked))" }
  public var customMirror: Mirror { Mirror(self, children: ["masked": masked]) }
}

/// What an installed package's API integration gives (Setup → Apps → Installed Packages →
/// the package → API Integration), as the `--tenant` file spells it.
public struct TenantCredentials: Sendable {
  public var clientID: String
  public var clientSecret: ClientSecret
  /// The MID of the business unit, when the package's own is not the one wanted.
  public var accountID: String?
  /// `https://SUBDOMAIN.auth.marketingcloudapis.com/`, without the trailing slash.
  public var authBaseURI: String
  /// `https://SUBDOMAIN.rest.marketingcloudapis.com/`, without the trailing slash; the token's
  /// `rest_instance_url` is used when the file gives none.
  public var restBaseURI: String?

  public init(
    clientID: String, clientSecret: ClientSecret, accountID: String? = nil,
    authBaseURI: String, restBaseURI: String? = nil
  ) {
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.accountID = accountID
    self.authBaseURI = authBaseURI
    self.restBaseURI = restBaseURI
  }
}

/// The `--tenant` file: read bounded, parsed, each problem said with the field it is in.
public enum TenantFile {
  /// A credentials file is a few hundred bytes; anything past this is not one.
  public static let largest = 64 << 10

  public struct Loaded: Sendable {
    public var credentials: TenantCredentials
    /// Said at start: a file others can read, a base URI that is not the usual one.
    public var warnings: [String]
  }

  public struct Problem: Error, CustomStringConvertible {
    public var description: String
  }

  public static func load(path: String) throws(Problem) -> Loaded {
    let shown = TerminalText.escaped(path)
    let bytes: [UInt8]
    switch SystemCalls.readFile(path, atMost: largest) {
    case .success(let read): bytes = read
    case .failure(let refusal): throw Problem(description: "--tenant \(shown) \(refusal)")
    }
    let object: [String: Any]
    do {
      guard let parsed = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
      else {
        throw Problem(
          description:
            "--tenant \(shown): not a JSON object; write {\"client_id\": ..., \"client_secret\": ..., \"auth_base_uri\": ...}"
        )
      }
      object = parsed
    } catch let problem as Problem {
      throw problem
    } catch {
      throw Problem(description: "--tenant \(shown): not valid JSON: \(jsonPlace(error))")
    }
    var warnings: [String] = []
    if let mode = permissions(path), mode & 0o077 != 0 {
      warnings.append(
        "--tenant \(shown) can be read by other users (mode \(String(mode & 0o777, radix: 8))): it holds a client secret; chmod 600 it"
      )
    }
    let credentials = try credentials(from: object, file: shown)
    return Loaded(credentials: credentials, warnings: warnings)
  }

  static func credentials(from object: [String: Any], file: String) throws(Problem)
    -> TenantCredentials
  {
    func text(_ field: String, required: Bool) throws(Problem) -> String? {
      guard let value = object[field], !(value is NSNull) else {
        if required {
          throw Problem(
            description:
              "--tenant \(file): \"\(field)\" is missing; copy it from the package's API Integration in Setup (Apps → Installed Packages)"
          )
        }
        return nil
      }
      // The MID is a number in the documentation's examples, a string in some exports.
      if field == "account_id", let number = value as? NSNumber, !(value is Bool) {
        return number.stringValue
      }
      guard let string = value as? String, !InputRules.trimmed(string).isEmpty else {
        throw Problem(description: "--tenant \(file): \"\(field)\" must be a non-empty string")
      }
      return InputRules.trimmed(string)
    }
    let auth = try text("auth_base_uri", required: true) ?? ""
    let rest = try text("rest_base_uri", required: false)
    for (field, uri) in [("auth_base_uri", auth), ("rest_base_uri", rest)] {
      if let uri, let problem = TenantURI.problem(uri) {
        throw Problem(description: "--tenant \(file): \"\(field)\" \(problem)")
      }
    }
    return TenantCredentials(
      clientID: try text("client_id", required: true) ?? "",
      clientSecret: ClientSecret(try text("client_secret", required: true) ?? ""),
      accountID: try text("account_id", required: false),
      authBaseURI: TenantURI.trimmed(auth), restBaseURI: rest.map(TenantURI.trimmed))
  }

  /// Foundation's words for where the JSON broke ("around line 3, column 7"), when it has them.
  static func jsonPlace(_ error: any Error) -> String {
    let info = (error as NSError).userInfo
    let detail = (info[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
    return TerminalText.escaped(detail)
  }

  private static func permissions(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
  }
}

/// The base URIs a tenant file (or a token's `rest_instance_url`) may give.
enum TenantURI {
  /// Why `uri` cannot be a base URI, or nil. Plain http only to this machine, as
  /// `LoopbackHost` reads the host exactly as written (no percent-encoding, nothing after the
  /// address): the client secret and the bearer token travel in the requests.
  static func problem(_ uri: String) -> String? {
    guard let parts = URLComponents(string: uri), let scheme = parts.scheme?.lowercased(),
      let host = parts.percentEncodedHost, !host.isEmpty
    else {
      return
        "is not a URI (\(TerminalText.clipped(uri))): it looks like https://SUBDOMAIN.auth.marketingcloudapis.com/"
    }
    if scheme == "https" { return nil }
    if scheme == "http" && LoopbackHost.contains(host) { return nil }
    return
      "must be https:// (\(TerminalText.clipped(uri))): plain http only to this machine (127.0.0.1, localhost, [::1]); the secret and the token would cross the network in clear"
  }

  static func trimmed(_ uri: String) -> String {
    var uri = uri
    while uri.hasSuffix("/") { uri.removeLast() }
    return uri
  }
}
