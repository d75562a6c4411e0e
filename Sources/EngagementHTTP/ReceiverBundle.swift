import DebugBundle
import EngagementCore
import EngagementServer
import Foundation
import HAR
import RegistrationCore

/// A running receiver's debug bundle made in process (#54): the JSON its API routes serve for
/// each device, its capture, its settings. `POST /api/devices/{id}/bundle`, `B` in regscope and
/// `regctl qa --bundle` make it here; `regctl bundle --receiver` reads the same over HTTP.
public enum ReceiverBundle {
  /// The most devices one bundle holds when none is named.
  public static let largestDevices = 500

  /// The material of one device (nil when the receiver holds nothing of it), or of every device
  /// it watches, newest first.
  public static func material(
    server: LocalEngagementServer, recorder: ExchangeRecorder?, deviceID: String?,
    origin: String
  ) async -> BundleMaterial? {
    let overview = await server.overview()
    var material = BundleMaterial(
      origin: origin,
      stats: ServerAPIViews.encode(
        ServerAPIViews.stats(overview.stats, settings: overview.settings, fault: overview.fault)),
      demographicsSource: server.hasTenant
        ? "the tenant's MobilePush Demographics (--tenant)"
        : overview.settings.definedAttributes == nil
          ? "none: every attribute accepted" : "--defined-attributes or PUT /api/demographics",
      secrets: [server.validationSettings.accessToken])
    var ids = deviceID.map { [$0] } ?? []
    if deviceID == nil {
      ids = await server.watchedDevices(newest: largestDevices).map(\.deviceID)
    }
    for id in ids {
      guard let device = await device(id, server: server) else { continue }
      material.devices.append(device)
      if let exchanges = recorder?.exchanges(of: id) {
        material.captures.append(
          NamedFile(
            name: "the receiver's capture of \(id)", bytes: Array(HARDocument.encode(exchanges))))
      }
    }
    if deviceID != nil && material.devices.isEmpty { return nil }
    return material
  }

  /// One device's parts, as its routes serve them; nil when the receiver holds none.
  static func device(_ id: String, server: LocalEngagementServer) async -> DeviceMaterial? {
    let watched = await server.watchedDevice(id)
    let fields = await server.fields(of: id)
    guard watched != nil || fields != nil else { return nil }
    return DeviceMaterial(
      deviceID: id, device: await entry(id, watched: watched, server: server),
      timeline: watched.map { ServerAPIViews.encode(WatchViews.timeline($0)) },
      fields: fields.map { ServerAPIViews.encode($0) },
      explain: fields.map {
        ServerAPIViews.encode(
          APIViewRoutes.DeviceExplanation(
            deviceID: id, sentences: FieldExplanation.sentences($0)))
      })
  }

  /// The device's entry in `GET /api/devices`: the processed device when the server holds
  /// it (looked for in at most 20 pages), else as the watch knows it (waiting, S2).
  static func entry(_ id: String, watched: DeviceWatch.Device?, server: LocalEngagementServer)
    async -> [UInt8]?
  {
    var cursor: String?
    for _ in 0..<20 {
      guard let page = try? await server.devicesPage(limit: 1000, before: cursor) else { break }
      if let found = page.items.first(where: { $0.deviceID == id }) {
        let shown = ServerAPIViews.devices(
          ServerPage(items: [found], next: nil),
          watched: watched.map { [id: $0] } ?? [:])
        return shown.items.first.map { ServerAPIViews.encode($0) }
      }
      guard let next = page.next else { break }
      cursor = next
    }
    return watched.map { ServerAPIViews.encode(ServerAPIViews.waitingDevice($0)) }
  }
}
