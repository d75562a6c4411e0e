import Foundation
import RegistrationCore

/// The shipped SDKs' device routes (SDK-FACTS.md): the registration, and the others the local
/// server answers harmlessly and counts per device. One table for the front and for captures.
public enum SDKRoutes {
  /// The other routes: method, path pattern (`:name` is one segment), name, the local answer.
  public static let others: [(method: String, pattern: String, name: String, answer: String)] = [
    ("POST", "device/v1/:appId/sync/:deviceId", "sync", #"{}"#),
    ("GET", "device/v1/:appId/message", "inbox", #"{"messages":[]}"#),
    ("PATCH", "device/v1/:appId/message", "inboxStatus", #"{}"#),
    ("POST", "device/v1/event/analytic", "analytics", #"{}"#),
    ("POST", "devicestatistics/v1/analytic", "statistics", #"{}"#),
    ("POST", "devicestatistics/v1/event", "statisticsEvent", #"{}"#),
    ("GET", "device/v1/location/:appId/fence", "fences", #"{"fences":[]}"#),
    ("GET", "device/v1/location/:appId/proximity", "proximity", #"{"beacons":[]}"#),
    // The Mobile App Messaging SDK beside MobilePush (10.0 on; SDK-FACTS, "A second
    // registration"): accepted, counted against the body's deviceId, never judged by the
    // MobilePush rules (its own throttle and retry were not read).
    (
      "POST", "platform/messaging/mobileapp/v1/events/register", "mobileAppMessagingRegistration",
      #"{}"#
    ),
    (
      "POST", "platform/messaging/mobileapp/v1/events/engagement",
      "mobileAppMessagingEngagement", #"{}"#
    ),
    ("POST", "platform/messaging/mobileapp/v1/events/billing", "mobileAppMessagingBilling", #"{}"#),
  ]

  /// The `deviceId` a Mobile App Messaging body names, if it is a JSON object with one.
  public static func deviceID(inBody body: [UInt8]) -> String? {
    let object = try? JSONSerialization.jsonObject(with: Data(body))
    return ((object as? [String: Any])?["deviceId"] as? String).flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The routes whose body names the device (`deviceId`), not their path or query.
  public static let deviceInBody: Set<String> = [
    "mobileAppMessagingRegistration", "mobileAppMessagingEngagement", "mobileAppMessagingBilling",
  ]

  public enum Route: Sendable, Hashable {
    case registration
    /// One of the others, with the device it names (a path segment or a `deviceid` query).
    case other(name: String, deviceID: String?)
  }

  /// The route `method` and `path` take, on any host and under any prefix (a tenant's base
  /// URL may have one); nil for a request that is not the SDK's.
  public static func route(method: String, path: String, query: [String: String] = [:])
    -> Route?
  {
    let segments = path.split(separator: "/").map(String.init)
    let method = method.uppercased()
    let registration = RegistrationRoute.path.split(separator: "/").map(String.init)
    if method == "POST", segments.suffix(registration.count).elementsEqual(registration) {
      return .registration
    }
    for route in others where route.method == method {
      let pattern = route.pattern.split(separator: "/").map(String.init)
      guard segments.count >= pattern.count else { continue }
      let tail = segments.suffix(pattern.count)
      guard zip(pattern, tail).allSatisfy({ $0.hasPrefix(":") || $0 == $1 }) else { continue }
      let named = zip(pattern, tail).first { $0.0 == ":deviceId" }?.1
      let deviceID =
        (named.map { $0.removingPercentEncoding ?? $0 }) ?? query["deviceid"] ?? query["deviceId"]
      return .other(name: route.name, deviceID: deviceID)
    }
    return nil
  }
}
