import DequeModule
import Foundation
import RegistrationCore

extension CapturedExchange {
  /// The device the request is about: the registration's `deviceID`, or the one an other
  /// route names; nil for a request that names none (or is not the SDK's).
  public var deviceID: String? {
    switch SDKRoutes.route(method: method, path: path, query: query) {
    case .registration?:
      let payload = try? WireDecoding.payload(from: requestBody).get()
      return payload?.deviceID.map(InputRules.trimmed).flatMap { $0.isEmpty ? nil : $0 }
    case .other(let name, let deviceID)?:
      // Mobile App Messaging names its device in the body.
      return deviceID
        ?? (SDKRoutes.deviceInBody.contains(name) ? SDKRoutes.deviceID(inBody: requestBody) : nil)
    case nil: return nil
    }
  }

  /// What the exchange costs to keep.
  var keptBytes: Int { requestBody.count + responseBody.count + url.utf8.count + 512 }
}

/// The newest device exchanges, for `GET /api/devices/{id}/har`: a ring within a byte budget,
/// the oldest dropped first. Recording costs no decoding (it is on every request's path); the
/// device an exchange belongs to is worked out only when a device's part is asked for.
public struct ExchangeLog: Sendable {
  public static let perDevice = DeviceWatch.timelineLimit
  public static let byteBudget = 32 << 20

  private var exchanges: Deque<CapturedExchange> = []
  private var bytes = 0

  public init() {}

  /// Keeps `exchange`; returns the oldest one dropped for the budget, if any, for the caller
  /// to let go: the log is shared by the event loops under a lock, and freeing an exchange
  /// (its bodies, headers and texts, taken by either loop) while holding it kept the other
  /// loop waiting. Under a fleet one goes as one comes; a larger newcomer's extra ones go here.
  @discardableResult
  public mutating func record(_ exchange: CapturedExchange) -> CapturedExchange? {
    exchanges.append(exchange)
    bytes += exchange.keptBytes
    var first: CapturedExchange?
    while bytes > Self.byteBudget, let oldest = exchanges.popFirst() {
      bytes -= oldest.keptBytes
      if first == nil { first = oldest }
    }
    return first
  }

  /// The device's newest exchanges (at most `perDevice`), oldest first; nil when none is held.
  public func exchanges(of deviceID: String) -> [CapturedExchange]? {
    var found: [CapturedExchange] = []
    for exchange in exchanges.reversed() where exchange.deviceID == deviceID {
      found.append(exchange)
      if found.count == Self.perDevice { break }
    }
    return found.isEmpty ? nil : found.reversed()
  }
}
