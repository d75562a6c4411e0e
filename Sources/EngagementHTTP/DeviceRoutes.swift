import EngagementCore
import EngagementServer
import Foundation
import Hummingbird
import RegistrationCore

/// What a real app needs besides the registration, and what QA reads about it: the shipped
/// SDKs' other device routes (SDK-FACTS.md), each answered with a harmless, well-formed empty
/// answer and recorded against its device, and the watch's views.
enum DeviceRoutes {
  static let subscriberToken = HTTPFields.Element.Name("X-Subscriber-Token")!
  static let sdkVersion = HTTPFields.Element.Name("X-SDK-Version")!

  /// A path parameter, percent-decoded once (`%20` is a space, `%2F` a slash): device ids are
  /// whatever the app made them.
  static func pathParameter(_ name: String, _ context: EngagementRequestContext) -> String? {
    context.parameters.get(name).map { $0.removingPercentEncoding ?? $0 }
  }

  static func facts(_ request: Request) -> RequestFacts {
    RequestFacts(
      userAgent: request.headers[.userAgent], sdkVersion: request.headers[sdkVersion],
      subscriberToken: request.headers[subscriberToken])
  }

  /// The other routes: (method, path, name, the answer's JSON).
  static let others: [(HTTPRequest.Method, String, String, String)] = [
    (.post, "device/v1/:appId/sync/:deviceId", "sync", #"{}"#),
    (.get, "device/v1/:appId/message", "inbox", #"{"messages":[]}"#),
    (.patch, "device/v1/:appId/message", "inboxStatus", #"{}"#),
    (.post, "device/v1/event/analytic", "analytics", #"{}"#),
    (.post, "devicestatistics/v1/analytic", "statistics", #"{}"#),
    (.post, "devicestatistics/v1/event", "statisticsEvent", #"{}"#),
    (.get, "device/v1/location/:appId/fence", "fences", #"{"fences":[]}"#),
    (.get, "device/v1/location/:appId/proximity", "proximity", #"{"beacons":[]}"#),
  ]

  static func add(
    to router: Router<EngagementRequestContext>, server: LocalEngagementServer,
    options: EngagementHTTPServer.Options
  ) {
    for (method, path, name, answer) in others {
      router.on(RouterPath(path), method: method) { request, context -> Response in
        // Read (and drop) what the SDK sent, so the connection stays usable.
        guard let body = await EngagementRoutes.readBody(request, options) else {
          return EngagementRoutes.tooLarge(options, context: context)
        }
        let deviceID =
          pathParameter("deviceId", context) ?? request.uri.queryParameters.get("deviceid")
          ?? request.uri.queryParameters.get("deviceId")
        await server.receiveOther(route: name, deviceID: deviceID, facts: facts(request))
        if let upstream = options.upstream {
          switch await upstream.forward(
            request, body: body, appClosed: ClientGoneHandler.future(for: context.channel))
          {
          case .success(let answer): return answer.response
          case .failure(let failure): return failure.response
          }
        }
        return EngagementRoutes.json(200, Array(answer.utf8))
      }
    }
    router.get("api/devices/:deviceID/registrations") { _, context -> Response in
      let deviceID = pathParameter("deviceID", context) ?? ""
      guard let device = await server.watchedDevice(deviceID) else {
        if await server.watchDropped(deviceID) {
          return EngagementRoutes.json(
            410,
            EngagementServerCore.errorBody(
              "timelineDropped",
              "device \"\(TerminalText.escaped(deviceID))\" registered, but its timeline was dropped: the watch keeps the \(NumberText.grouped(DeviceWatch.deviceLimit)) devices seen most recently",
              field: "deviceID"))
        }
        return EngagementRoutes.json(
          404,
          EngagementServerCore.errorBody(
            "unknownDevice",
            "no device \"\(TerminalText.escaped(deviceID))\" has registered with this server",
            field: "deviceID"))
      }
      return EngagementRoutes.json(200, ServerAPIViews.encode(WatchViews.timeline(device)))
    }
  }
}

extension DeviceRoutes {
  /// `--upstream`: an injected fault answers first; otherwise the tenant answers, and what
  /// it answered joins the device's timeline.
  static func relayRegistration(
    _ request: Request, context: EngagementRequestContext, server: LocalEngagementServer,
    upstream: Upstream, options: EngagementHTTPServer.Options
  ) async -> Response {
    guard let body = await EngagementRoutes.readBody(request, options) else {
      return EngagementRoutes.tooLarge(options, context: context)
    }
    let bytes = Array(body.readableBytesView)
    // The time the app sent it, not the time the tenant answered: the SDKs measure their
    // waits from their send.
    let receivedAt = server.clock.now()
    if let fault = await server.injectedAnswer() {
      var status: Int?
      var retryAfter: RetryAfter.Value?
      if case .respond(let code, _, let after) = fault {
        (status, retryAfter) = (code, after.map { .delaySeconds($0.rounded(.up)) })
      }
      await server.recordRelayed(
        body: bytes, facts: facts(request), receivedAt: receivedAt, status: status,
        retryAfter: retryAfter, issuedToken: nil)
      return await EngagementRoutes.answer(fault, options: options)
    }
    switch await upstream.forward(
      request, body: body, appClosed: ClientGoneHandler.future(for: context.channel))
    {
    case .success(let answer):
      // The one Retry-After reader; a date is measured against the tenant's own Date.
      let tenantNow = answer.header("Date").flatMap(RetryAfter.httpDate) ?? Date()
      await server.recordRelayed(
        body: bytes, facts: facts(request), receivedAt: receivedAt, status: answer.status,
        retryAfter: answer.header("Retry-After").flatMap { RetryAfter.parse($0, now: tenantNow) },
        issuedToken: answer.header("X-Subscriber-Token"))
      return answer.response
    case .failure(let failure):
      await server.recordRelayed(
        body: bytes, facts: facts(request), receivedAt: receivedAt, status: failure.status,
        retryAfter: nil, issuedToken: nil, local: true)
      return failure.response
    }
  }
}

/// The watch as JSON.
enum WatchViews {
  struct Registration: Encodable {
    var at: Double
    var interval: Double?
    var status: Int?
    /// The answer was RegScope's relay's (unreachable, invalid, too slow, full), not the
    /// tenant's.
    var local: Bool?
    var retryAfter: Double?
    var body: String?
    var changes: [String]
    var findings: [Finding]
    var subscriberTokenSent: Bool
  }

  /// The earliest the device's SDK could register next, and the rule that says so.
  struct Next: Encodable {
    var at: Double
    var rule: String
    var why: String
  }

  struct Timeline: Encodable {
    var deviceID: String
    var client: Client
    var registrationCount: Int
    var registrations: [Registration]
    var next: Next?
  }

  struct Client: Encodable {
    var sdk: String
    var sdkVersion: String?
    var platform: String?
    var systemVersion: String?
    var bundleID: String?
    var appVersion: String?
    var subscriberToken: String
    /// Nil until a later request could have sent it back.
    var subscriberTokenReturned: Bool?
    var firstSeen: Double
    var lastSeen: Double
    var findings: [String: Int]
    /// Findings by severity: `violation`, `warning`, `note` (each present, 0 when none).
    var severities: [String: Int]
    /// Registrations the server refused (S1), and the newest refusal with its fix.
    var refused: Int
    var lastRefusal: String?
    var otherRoutes: [String: Int]
  }

  static func client(_ device: DeviceWatch.Device) -> Client {
    let identity = device.identity
    return Client(
      sdk: identity.sdk.rawValue, sdkVersion: identity.sdkVersion, platform: identity.platform,
      systemVersion: identity.systemVersion, bundleID: identity.bundleID,
      appVersion: identity.appVersion, subscriberToken: device.subscriberToken,
      subscriberTokenReturned: device.tokenReturned, firstSeen: device.firstSeen.seconds,
      lastSeen: device.lastSeen.seconds, findings: device.findingCounts,
      severities: Dictionary(
        uniqueKeysWithValues: Finding.Severity.allCases.map {
          ($0.rawValue, device.severityCounts[$0] ?? 0)
        }),
      refused: device.refusedCount, lastRefusal: device.lastRefusal?.summary,
      otherRoutes: device.otherRoutes)
  }

  static func timeline(_ device: DeviceWatch.Device) -> Timeline {
    Timeline(
      deviceID: device.deviceID, client: client(device),
      registrationCount: device.registrationCount,
      registrations: device.registrations.map {
        Registration(
          at: $0.at.seconds, interval: $0.interval, status: $0.status,
          local: $0.local ? true : nil, retryAfter: $0.retryAfter,
          body: $0.body.isEmpty ? nil : $0.body, changes: $0.changes, findings: $0.findings,
          subscriberTokenSent: $0.subscriberTokenSent)
      },
      next: device.nextSend.map { Next(at: $0.at.seconds, rule: $0.rule, why: $0.why) })
  }
}
