import Foundation
import OrderedCollections
import RegistrationCore

extension CapturedExchange {
  /// The device the request is about: the registration's `deviceID`, or the one an other
  /// route names; nil for a request that names none (or is not the SDK's).
  public var deviceID: String? {
    switch SDKRoutes.route(method: method, path: path, query: query) {
    case .registration?:
      let payload = try? WireDecoding.payload(from: Data(requestBody)).get()
      return payload?.deviceID.map(InputRules.trimmed).flatMap { $0.isEmpty ? nil : $0 }
    case .other(_, let deviceID)?: return deviceID
    case nil: return nil
    }
  }

  /// What the exchange costs to keep.
  var keptBytes: Int { requestBody.count + responseBody.count + url.utf8.count + 512 }
}

/// The newest exchanges of each device, for `GET /api/devices/{id}/har`: as many per device as
/// the watch keeps registrations, within a byte budget; the device seen longest ago goes first.
public struct ExchangeLog: Sendable {
  public static let perDevice = DeviceWatch.timelineLimit
  public static let byteBudget = 32 << 20

  private var devices: OrderedDictionary<String, [CapturedExchange]> = [:]
  private var bytes = 0

  public init() {}

  public mutating func record(_ exchange: CapturedExchange) {
    guard let deviceID = exchange.deviceID else { return }
    var kept = devices.removeValue(forKey: deviceID) ?? []
    kept.append(exchange)
    bytes += exchange.keptBytes
    if kept.count > Self.perDevice {
      bytes -= kept.removeFirst().keptBytes
    }
    devices[deviceID] = kept
    while bytes > Self.byteBudget, devices.count > 1 {
      bytes -= devices.removeFirst().value.reduce(0) { $0 + $1.keptBytes }
    }
  }

  public func exchanges(of deviceID: String) -> [CapturedExchange]? { devices[deviceID] }
}
