import RegistrationCore

/// Why a tenant could not answer what was asked, in words a new user acts on.
public enum TenantFailure: Error, Sendable, CustomStringConvertible {
  /// No connection (a wrong host, DNS, TLS, a port nothing listens on): the client's words.
  case unreachable(uri: String, reason: String)
  /// The whole answer did not come within the deadline.
  case late(what: String, seconds: Double)
  /// The whole exchange (its pages, the token, each 429 waited out) ran past its deadline.
  case exchangeLate(what: String, seconds: Double)
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
  /// `looked` was not among what was read, and `notRead` was not: whether the tenant holds it
  /// is not known (never said as absent).
  case notAllRead(what: String, looked: String, notRead: String)
  /// The token answer's `access_token` holds a control character (`control`, escaped, at
  /// character `at`): it cannot go in a header, and is never sent. `masked` as every token is.
  case unusableToken(what: String, masked: String, control: String, at: Int)
  /// The token answer's `rest_instance_url` was refused (`problem`: plain http off this
  /// machine, not a URI), and the file gives no `rest_base_uri` to use instead.
  case refusedInstanceURL(what: String, problem: String)

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
      "cannot reach \(Self.said(uri)) (\(TerminalText.escaped(reason))): check the base URIs in the --tenant file against the package's API Integration in Setup, and that this machine can reach them"
    case .late(let what, let seconds):
      "\(Self.said(what)): no whole answer within \(DurationText.describe(seconds)); the tenant is slow or unreachable from here, try again (--tenant-timeout sets the limit)"
    case .exchangeLate(let what, let seconds):
      "\(Self.said(what)): the tenant's pages and its requests to wait (429) took longer than \(DurationText.describe(seconds)) in all, so the rest was not asked; try again later (--tenant-timeout sets the limit, the whole exchange gets three times it)"
    case .notFound(let what, let field):
      "\(Self.said(what)) answered 404: \"\(field)\" in the --tenant file is not this tenant's; copy it again from the package's API Integration in Setup (Apps → Installed Packages)"
    case .credentialsRefused(let error, let detail):
      "the tenant refused the client id and secret (\(TerminalText.clipped(error))\(Self.detail(detail))): copy client_id and client_secret again from the package's API Integration in Setup (Apps → Installed Packages); a secret renewed there replaces the old one"
    case .tokenRefused(let status, let error, let detail):
      "the token request was refused (\(status)\(error.map { " " + TerminalText.clipped($0) } ?? "")\(Self.detail(detail))): check account_id (the business unit's MID) and that the package's API Integration is Server-to-Server"
    case .missingScope(let what):
      "\(Self.said(what)) answered 403: the package may not read contacts; in Setup → Apps → Installed Packages → the package → API Integration → Edit, tick Contacts: List and Subscribers: Read"
    case .tokenNotAccepted(let what):
      "\(Self.said(what)) answered 401 with a token just issued: the package's API Integration may be for another business unit (check account_id)"
    case .throttled(let what, let code, let after):
      "\(Self.said(what)) is throttled (429\(code.map { ", errorcode \($0)" } ?? "")): the tenant asks for fewer requests; try again\(after.map(Self.waitAsked) ?? " later")"
    case .status(let what, let status, let message):
      "\(Self.said(what)) answered \(status)\(Self.detail(message))"
    case .malformed(let what, let reason):
      "\(Self.said(what)): the answer is not what the documentation describes (\(TerminalText.escaped(reason)))"
    case .notAllRead(let what, let looked, let notRead):
      "\(Self.said(what)): \(TerminalText.escaped(notRead)), without finding \(looked): whether the tenant has it is not known (a tenant holds a few dozen sets; one that counts far more answers oddly, or the --tenant file names another business unit)"
    case .noDemographicsSet(let seen):
      "the tenant has no \"MobilePush Demographics\" attribute set (it has \(seen.count): \(seen.prefix(12).map { TerminalText.clipped($0) }.joined(separator: ", "))\(seen.count > 12 ? ", …" : "")): MobilePush is not provisioned in this business unit, or account_id names another"
    case .unusableToken(let what, let masked, let control, let at):
      "\(Self.said(what)) answered an access_token with a control character (\(control) at character \(at); token \(TerminalText.escaped(masked))), which cannot go in a request header: it was refused and never sent. The tenant, or something between here and it, answers tokens oddly: check auth_base_uri in the --tenant file, and try again"
    case .refusedInstanceURL(let what, let problem):
      "\(Self.said(what)) answered a rest_instance_url that was refused: it \(problem); the --tenant file gives no rest_base_uri to use instead: add the package's REST Base URI (https://SUBDOMAIN.rest.marketingcloudapis.com/) as rest_base_uri"
    }
  }

  /// The wait a 429 asked, as precisely as it asked: `30.0000001 s` is over the 30 s waited
  /// (`DurationText` would round it to 30 s); past a day, "more than a day" (never `1e+20 s`).
  static func waitAsked(_ seconds: Double) -> String {
    let over =
      seconds > TenantClient.longestWait
      ? " (longer than the \(DurationText.describe(TenantClient.longestWait)) RegScope waits within a request)"
      : ""
    guard seconds <= 86_400 else { return " in more than a day\(over)" }
    let exact = "\(seconds)"
    let shown =
      seconds.rounded() == seconds || exact.contains("e")
      ? DurationText.describe(seconds) : exact + " s"
    return " in \(shown)\(over)"
  }

  /// A request or URI in a message: escaped, clipped long past any real one (a subdomain's
  /// URI is under 100 characters).
  private static func said(_ text: String) -> String { TerminalText.clipped(text, limit: 200) }

  private static func detail(_ text: String?) -> String {
    guard let text, !text.isEmpty else { return "" }
    return ": " + TerminalText.clipped(text, limit: 200)
  }
}
