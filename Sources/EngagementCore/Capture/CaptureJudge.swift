import Foundation
import RegistrationCore

/// What a capture held besides the registrations it judged.
public struct CaptureCounts: Sendable, Hashable, Codable {
  /// Registrations judged.
  public var registrations = 0
  /// Registrations the server refused (S1: a wrong token or app, a body no SDK sends).
  public var refused = 0
  /// Posts to the registration route whose body is no registration (no JSON, no device id).
  public var notRegistrations = 0
  /// Calls to the SDK's other device routes, counted against their devices.
  public var otherRoutes = 0
  /// Entries that are not the SDK's (the app's own API, images, analytics of others).
  public var ignored = 0
  /// Entries without a start time, or with one that cannot be read: left out.
  public var skippedTimes = 0
  /// Entries already read from another of the files given (the same capture twice, or two
  /// exports that overlap): the same bytes at the same instant, judged once.
  public var duplicates = 0
  /// Entries the scanner found but that cannot be read as JSON (a lone surrogate, a number
  /// out of range, invalid UTF-8), by file and index: they fail the run unless skipped.
  public var unreadable: [String] = []

  public init() {}
}

/// Judges a capture's registrations with the live watch's judge and severities, device by
/// device, for the SDK each one runs. The exchanges must come in time order. Pure.
///
/// A capture cannot see the tenant's processing, so the contact each device is in (for the
/// orphan findings, S3/S4) is the one its accepted registrations named, from the capture
/// itself: a contact another captured device still holds is not orphaned.
public struct CaptureJudge: Sendable {
  /// The tokens are the tenant's, from the answers: none is made up for a device that was
  /// never given one.
  /// Every device is kept, however many: a gate on a capture must see each one.
  public private(set) var watch = DeviceWatch(makeToken: { "" }, keptDevices: .max)
  public var counts = CaptureCounts()
  private var contacts = ContactBook()
  /// Set to tell each field's story (`regctl judge --fields`): the registrations the tenant
  /// took, replayed through processing.
  public var replay: FieldReplay?
  /// The demographics table, when one is known (`regctl judge --tenant` or
  /// `--defined-attributes`): an attribute it lacks is found (S5) as the live judge finds it.
  public var definedAttributes: Set<String>?
  /// The tenant's attribute set that table was read from, named in the finding.
  public var demographicsSet: String?

  public init() {}

  public mutating func add(_ exchange: CapturedExchange) {
    switch SDKRoutes.route(method: exchange.method, path: exchange.path, query: exchange.query) {
    case nil:
      counts.ignored += 1
    case .other(let name, let deviceID)?:
      counts.otherRoutes += 1
      let named =
        deviceID
        ?? (SDKRoutes.deviceInBody.contains(name)
          ? SDKRoutes.deviceID(inBody: exchange.requestBody) : nil)
      watch.recordOther(
        route: name, deviceID: named, facts: exchange.facts, at: exchange.startedAt,
        body: exchange.requestBody, status: exchange.status)
    case .registration?:
      judgeRegistration(exchange)
    }
  }

  private mutating func judgeRegistration(_ exchange: CapturedExchange) {
    let decoded = try? WireDecoding.payload(from: exchange.requestBody).get()
    if let refusal = Self.refusal(exchange, payload: decoded) {
      // Judged as the live watch judged it: against its device, or its client's stand-in.
      counts.registrations += 1
      counts.refused += 1
      _ = watch.recordRefusal(refusal, facts: exchange.facts, at: exchange.startedAt)
      return
    }
    guard let payload = decoded,
      let deviceID = payload.deviceID.map(InputRules.trimmed), !deviceID.isEmpty
    else {
      counts.notRegistrations += 1
      return
    }
    counts.registrations += 1
    // A date is measured against the answer's own Date, else the request's start.
    let answeredAt =
      exchange.responseHeader("Date").flatMap(RetryAfter.httpDate)
      ?? Date(timeIntervalSince1970: exchange.startedAt.seconds)
    let retryAfter = exchange.responseHeader("Retry-After").flatMap {
      RetryAfter.parse($0, now: answeredAt)
    }
    let book = contacts
    _ = watch.record(
      ReceivedRegistration(
        deviceID: deviceID, payload: payload, body: exchange.requestBody, facts: exchange.facts,
        at: exchange.startedAt, status: exchange.status, retryAfter: retryAfter,
        server: ServerFacts(
          definedAttributes: definedAttributes, demographicsSet: demographicsSet,
          contactStillHasOtherDevices: { book.hasOtherDevices($0, than: deviceID) }),
        issuedToken: exchange.responseHeader("X-Subscriber-Token")))
    if let status = exchange.status, RetryPolicy.isSuccess(status: status) {
      contacts.accept(payload, deviceID: deviceID)
      replay?.add(payload, body: exchange.requestBody, at: exchange.startedAt)
    }
  }

  /// A refused registration (S1) as the live watch records it: the kind the local server
  /// named in its error body, else the one the status and the body tell; the server's own
  /// words as the reason.
  static func refusal(_ exchange: CapturedExchange, payload: RegistrationPayload?) -> Refusal? {
    guard let status = exchange.status, [400, 401, 403, 413].contains(status) else { return nil }
    let answer =
      (try? JSONSerialization.jsonObject(with: Data(exchange.responseBody))) as? [String: Any]
    let inferred: Refusal.Kind
    switch status {
    case 401, 403: inferred = .unauthorized
    case 413: inferred = .bodyTooLarge
    default:
      inferred =
        payload.map { RequiredFields.missing(in: $0).isEmpty ? .unknownApp : .missingField }
        ?? .invalidBody
    }
    let kind = (answer?["error"] as? String).flatMap(Refusal.Kind.init(rawValue:)) ?? inferred
    let reason = (answer?["message"] as? String).map(TerminalText.escaped) ?? "answered \(status)"
    var refusal = Refusal(kind: kind, status: status, reason: reason, payload: payload)
    refusal.setting = .capture
    return refusal
  }

  /// The devices, the one seen first first (ties by id: the same capture reads the same way).
  public var devices: [DeviceWatch.Device] {
    watch.devices.values.sorted { ($0.firstSeen, $0.deviceID) < ($1.firstSeen, $1.deviceID) }
  }

  /// The worst severity any finding has, or nil when there is none.
  public var worstSeverity: Finding.Severity? {
    let all = watch.devices.values.flatMap { $0.severityCounts.filter { $0.value > 0 }.keys }
    return Finding.Severity.allCases.first { all.contains($0) }
  }

  /// How a subscriber token prints everywhere (the live API, a judged capture, a QA report):
  /// masked with its fingerprint, or "(none issued)". A token that is a mask already (a
  /// capture RegScope wrote with --har holds masks) prints as it is, never masked again.
  public static func shownToken(_ token: String) -> String {
    if token.isEmpty { return "(none issued)" }
    return TokenText.isMasked(token) ? token : TokenText.fingerprinted(token)
  }
}
