import EngagementCore
import Foundation
import HAR
import RegistrationCore

/// The receiving path's own work for `count` registrations from as many new devices, shaped
/// like Android 10.0's: the body read and checked (S1), received by the core, judged by the
/// watch, written as a capture's entry, processed (S2). No socket, no clock, no randomness:
/// under callgrind its instruction count is the same run after run, which is what the gate in
/// `Benchmarks/gate.sh` compares (`regscope-bench receive-path 500`).
enum ReceivePath {
  static let app = "995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47"
  static let token = "load-token-0123456789"
  static let userAgent =
    "MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0"

  /// Built by interpolation: the body's making must cost little beside the path it feeds,
  /// or the gate counts the benchmark more than the receiver.
  static func body(_ index: Int) -> [UInt8] {
    let id = "FLEET-\(index)"
    return Array(
      #"{"app_Version":"1.0","attributes":[{"key":"Tier","value":"gold"}],"dST":false,"deviceID":"\#(id)","etAppId":"\#(app)","hwid":"Google Pixel 8","locale":"en_US","location_Enabled":false,"platform":"Android","platform_Version":"14","proximity_Enabled":false,"push_Enabled":true,"quietPushEnabled":false,"registrationDateUtc":"2026-11-22T10:00:00.000Z","sdk_Version":"10.0.0","signedString":null,"tags":["ALL","ANDROID"],"timeZone":"0","uuid":"\#(id)"}"#
        .utf8)
  }

  /// Runs the path; returns a checksum so nothing is optimised away.
  static func run(_ count: Int) -> Int {
    let settings = ServerSettings(appID: app, accessToken: token, processingDelay: 60)
    var core = EngagementServerCore(settings: settings, seed: 1)
    var watch = DeviceWatch(makeToken: { "rs-bench-token" })
    var sink = 0
    for index in 0..<count {
      let now = Instant(1_795_341_600 + Double(index) / 100)
      let body = body(index)
      let validation = EngagementServerCore.validate(
        authorization: "Bearer \(token)", body: body, settings: settings)
      let (answer, changes) = core.receive(validation, now: now)
      sink &+= changes.events.count
      guard case .valid(let payload, let received) = validation else { continue }
      let facts = RequestFacts(userAgent: userAgent)
      let deviceID = payload.deviceID ?? ""
      // What the server's actor hands the judge.
      let issued = watch.record(
        ReceivedRegistration(
          deviceID: deviceID, payload: payload, body: received, facts: facts,
          at: now, status: 201, retryAfter: nil, server: core.judgeFacts(excluding: deviceID)))
      sink &+= issued.utf8.count
      let exchange = CapturedExchange(
        startedAt: now, duration: 0.001, method: "POST",
        url: "http://127.0.0.1:8080/device/v1/registration",
        requestHeaders: [
          HeaderField("Authorization", "Bearer \(token)"), HeaderField("User-Agent", userAgent),
          HeaderField("Content-Type", "application/json; charset=utf-8"),
        ],
        requestBody: body, status: 201,
        responseHeaders: [
          HeaderField("Content-Type", "application/json"),
          HeaderField("X-Subscriber-Token", issued),
        ],
        responseBody: {
          if case .respond(_, let body, _) = answer { return body }
          return []
        }())
      sink &+= HARDocument.entryBytes(exchange).count
      if index % 100 == 99 { sink &+= core.processDue(now: now + 60).events.count }
    }
    return sink
  }
}
