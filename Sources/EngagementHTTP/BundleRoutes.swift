import DebugBundle
import EngagementCore
import EngagementServer
import Foundation
import HTTPTypes
import Hummingbird
import RegistrationCore

/// `POST /api/devices/{id}/bundle` (#54): the device's debug bundle as a zip, behind the
/// app's token like the controls (it gathers every view of the device at once).
/// `?redact=true` replaces contact keys, device ids, push tokens and attribute values with
/// keyed hashes.
struct BundleRoutes {
  let server: LocalEngagementServer
  let recorder: ExchangeRecorder

  var collection: RouteCollection<EngagementRequestContext> {
    let collection = RouteCollection(context: EngagementRequestContext.self)
      .add(middleware: AppTokenMiddleware(server: server))
    collection.post("devices/:deviceID/bundle") { request, context in
      await self.bundle(request, context: context)
    }
    return collection
  }

  private func bundle(_ request: Request, context: EngagementRequestContext) async -> Response {
    let deviceID = DeviceRoutes.pathParameter("deviceID", context) ?? ""
    let redact =
      request.uri.queryParameters.get("redact").map {
        ["1", "true", "yes"].contains($0.lowercased())
      } ?? false
    guard
      let material = await ReceiverBundle.material(
        server: server, recorder: recorder, deviceID: deviceID,
        origin: "this receiver (POST /api/devices/{id}/bundle)")
    else {
      return EngagementRoutes.json(
        404,
        EngagementServerCore.errorBody(
          "unknownDevice",
          "the server holds nothing of device \"\(TerminalText.escaped(deviceID))\"",
          field: "deviceID"))
    }
    let made: MadeBundle
    do {
      made = try BundleMaker.make(material, redact: redact)
    } catch {
      return EngagementRoutes.json(
        error.kind == .tooLarge ? 413 : 500,
        EngagementServerCore.errorBody(
          error.kind == .tooLarge ? "bundleTooLarge" : "bundleFailed", error.message, field: nil))
    }
    var response = EngagementRoutes.json(200, made.zip)
    response.headers[.contentType] = "application/zip"
    if let disposition = HTTPField.Name("Content-Disposition") {
      response.headers[disposition] = "attachment; filename=\"regscope-bundle.zip\""
    }
    return response
  }
}
