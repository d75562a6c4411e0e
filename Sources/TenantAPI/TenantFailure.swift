import RegistrationCore

/// Why a tenant could not answer what was asked, in words a new user acts on.
public enum TenantFailure: Error, Sendable, CustomStringConvertible {
  /// No connection (a wrong host, DNS, TLS, a port nothing listens on): the client's words.
  case unreachable(uri: String, reason: String)
  /// The whole answer did not come within the deadline.
  case late(what: String, seconds: Double)
  /// 404 where a documented route should be: the base URI is not the tenant's.
  case notFound(what: String, field: String)
  /// `POST /v2/token` refused the client id and secret (401 `invalid_client`).
  case credentialsRefused(error: String, detail: String?)
  /// The token request was refused otherwise (400 and the like): the tenant's own words.
  case tokenRefused(status: Int, error: String?, detail: String?)
  /// 403 on a REST call: the package lacks the scope the route needs.
  case missingScope(what: String)
  /// A 401 on a REST call even with a token just renewed.
  case tokenNotAccepted(what: String)
  /// Still throttled after waiting as the tenant asked.
  case throttled(what: String, errorCode: Int?, retryAfter: Double?)
  /// Any other status.
  case status(what: String, status: Int, message: String?)
  /// An answer that is not what the documentation describes.
  case malformed(what: String, reason: String)
  /// The tenant answered, and has no MobilePush Demographics attribute set.
  case noDemographicsSet(seen: [String])

  /// True when the tenant answered and something in it, or in the package, is wrong (exit
  /// 1); false when the tenant could not be checked at all (exit 2).
  public var isTenantProblem: Bool {
    switch self {
    case .missingScope, .noDemographicsSet: true
    default: false
    }
  }

  public var description: String {
    switch self {
    case .unreachable(let uri, let reason):
      "cannot reach \(TerminalText.escaped(uri)) (\(TerminalText.escaped(reason))): check the base URIs in the --tenant file against the package's API Integration in Setup, and that this machine can reach them"
    case .late(let what, let seconds):
      "\(what): no whole answer within \(DurationText.describe(seconds)); the tenant is slow or unreachable from here, try again (--tenant-timeout sets the limit)"
    case .notFound(let what, let field):
      "\(what) answered 404: \"\(field)\" in the --tenant file is not this tenant's; copy it again from the package's API Integration in Setup (Apps → Installed Packages)"
    case .credentialsRefused(let error, let detail):
      "the tenant refused the client id and secret (\(TerminalText.escaped(error))\(Self.detail(detail))): copy client_id and client_secret again from the package's API Integration in Setup (Apps → Installed Packages); a secret renewed there replaces the old one"
    case .tokenRefused(let status, let error, let detail):
      "the token request was refused (\(status)\(error.map { " " + TerminalText.escaped($0) } ?? "")\(Self.detail(detail))): check account_id (the business unit's MID) and that the package's API Integration is Server-to-Server"
    case .missingScope(let what):
      "\(what) answered 403: the package may not read contacts; in Setup → Apps → Installed Packages → the package → API Integration → Edit, tick Contacts: List and Subscribers: Read"
    case .tokenNotAccepted(let what):
      "\(what) answered 401 with a token just issued: the package's API Integration may be for another business unit (check account_id)"
    case .throttled(let what, let code, let after):
      "\(what) is throttled (429\(code.map { ", errorcode \($0)" } ?? "")): the tenant asks for fewer requests; try again\(after.map { " in " + DurationText.describe($0) } ?? " later")"
    case .status(let what, let status, let message):
      "\(what) answered \(status)\(Self.detail(message))"
    case .malformed(let what, let reason):
      "\(what): the answer is not what the documentation describes (\(TerminalText.escaped(reason)))"
    case .noDemographicsSet(let seen):
      "the tenant has no \"MobilePush Demographics\" attribute set (it has \(seen.count): \(seen.prefix(12).map(TerminalText.escaped).joined(separator: ", "))\(seen.count > 12 ? ", …" : "")): MobilePush is not provisioned in this business unit, or account_id names another"
    }
  }

  private static func detail(_ text: String?) -> String {
    guard let text, !text.isEmpty else { return "" }
    return ": " + TerminalText.escaped(String(text.prefix(200)))
  }
}
