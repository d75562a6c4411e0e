import EngagementCore
import EngagementServer
import Foundation
import HAR
import Hummingbird
import NIOCore
import RegistrationCore

/// The API's views (`/api/...`): the server's contacts, devices, registrations and counts,
/// and each watched device's timeline. Read-only, open to anyone who can reach the server.
struct APIViewRoutes {
  let server: LocalEngagementServer
  let recorder: ExchangeRecorder

  var collection: RouteCollection<EngagementRequestContext> {
    let collection = RouteCollection(context: EngagementRequestContext.self)
    collection.get("contacts") { request, _ in await self.contacts(request) }
    collection.get("devices") { request, _ in await self.devices(request) }
    collection.get("registrations") { request, _ in await self.registrations(request) }
    collection.get("stats") { _, _ in await self.stats() }
    collection.get("devices/:deviceID/registrations") { _, context in
      await self.timeline(context: context)
    }
    collection.get("devices/:deviceID/har") { _, context in await self.har(context: context) }
    collection.get("devices/:deviceID/fields") { _, context in
      await self.fields(context: context, explained: false)
    }
    collection.get("devices/:deviceID/explain") { _, context in
      await self.fields(context: context, explained: true)
    }
    return collection
  }

  private func contacts(_ request: Request) async -> Response {
    let query: (limit: Int, before: String?)
    do throws(QueryProblem) { query = try Self.pageQuery(request) } catch {
      return error.response
    }
    do throws(UnknownCursor) {
      let page = try await server.contactsPage(limit: query.limit, before: query.before)
      var devices: [String: [String]] = [:]
      for contact in page.items { devices[contact.key] = await server.devices(of: contact.key) }
      return EngagementRoutes.json(
        200, ServerAPIViews.encode(ServerAPIViews.contacts(page, devices: devices)))
    } catch {
      return Self.unknownCursor(error.cursor)
    }
  }

  private func devices(_ request: Request) async -> Response {
    let query: (limit: Int, before: String?)
    do throws(QueryProblem) { query = try Self.pageQuery(request) } catch {
      return error.response
    }
    do throws(UnknownCursor) {
      // The devices still waiting for processing come first, paged like the rest
      // (`next` = "waiting:ID" while more wait), then the processed ones.
      let waitingCursor = query.before.flatMap {
        $0.hasPrefix("waiting:") ? String($0.dropFirst(8)) : nil
      }
      var awaiting: [DeviceWatch.Device] = []
      if query.before == nil || waitingCursor != nil {
        awaiting = await server.watchedAwaitingProcessing(
          limit: query.limit + 1, after: waitingCursor)
        if awaiting.count > query.limit {
          let shown = Array(awaiting.prefix(query.limit))
          let page = ServerPage<ServerDevice>(
            items: [], next: "waiting:" + shown[shown.count - 1].deviceID)
          return EngagementRoutes.json(
            200, ServerAPIViews.encode(ServerAPIViews.devices(page, awaiting: shown)))
        }
      }
      let processedBefore = waitingCursor == nil ? query.before : nil
      let page = try await server.devicesPage(limit: query.limit, before: processedBefore)
      let watched = await server.watchedDevices(page.items.map(\.deviceID))
      return EngagementRoutes.json(
        200,
        ServerAPIViews.encode(ServerAPIViews.devices(page, watched: watched, awaiting: awaiting)))
    } catch {
      return Self.unknownCursor(error.cursor)
    }
  }

  private func registrations(_ request: Request) async -> Response {
    let query: (limit: Int, before: String?)
    do throws(QueryProblem) { query = try Self.pageQuery(request) } catch {
      return error.response
    }
    var before: Int?
    if let text = query.before {
      // All digits but past Int: before everything there is, the newest page.
      let huge = text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
      guard let id = Int(text) ?? (huge ? Int.max : nil), id >= 0 else {
        return EngagementRoutes.json(
          400,
          EngagementServerCore.errorBody(
            "invalidQuery",
            "before must be a registration id (the next of the page before); got \"\(TerminalText.escaped(text))\"",
            field: "before"))
      }
      before = id
    }
    let page = await server.registrationsPage(limit: query.limit, before: before)
    return EngagementRoutes.json(200, ServerAPIViews.encode(ServerAPIViews.registrations(page)))
  }

  private func stats() async -> Response {
    let overview = await server.overview()
    return EngagementRoutes.json(
      200,
      ServerAPIViews.encode(
        ServerAPIViews.stats(
          overview.stats, settings: overview.settings, fault: overview.fault)))
  }

  private func timeline(context: EngagementRequestContext) async -> Response {
    let deviceID = DeviceRoutes.pathParameter("deviceID", context) ?? ""
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

  /// Each field's story (`DeviceFieldStories`), or its explanation in sentences.
  private func fields(context: EngagementRequestContext, explained: Bool) async -> Response {
    let deviceID = DeviceRoutes.pathParameter("deviceID", context) ?? ""
    guard let fields = await server.fields(of: deviceID) else {
      return EngagementRoutes.json(
        404,
        EngagementServerCore.errorBody(
          "unknownDevice",
          "the server holds no registration of device \"\(TerminalText.escaped(deviceID))\"",
          field: "deviceID"))
    }
    guard explained else { return EngagementRoutes.json(200, ServerAPIViews.encode(fields)) }
    return EngagementRoutes.json(
      200,
      ServerAPIViews.encode(
        DeviceExplanation(deviceID: deviceID, sentences: FieldExplanation.sentences(fields))))
  }

  struct DeviceExplanation: Encodable {
    var deviceID: String
    var sentences: [String]
  }

  struct QueryProblem: Error {
    var response: Response
  }

  /// `limit` (1 to 1000, default 100) and `before` (the `next` of the page before).
  private static func pageQuery(_ request: Request) throws(QueryProblem) -> (
    limit: Int, before: String?
  ) {
    let parameters = request.uri.queryParameters
    let before = parameters.get("before")
    if before?.isEmpty == true {
      throw QueryProblem(
        response: EngagementRoutes.json(
          400,
          EngagementServerCore.errorBody(
            "invalidQuery", "before is empty: give the next of the page before, or leave it out",
            field: "before")))
    }
    guard let text = parameters.get("limit") else { return (EngagementRoutes.defaultLimit, before) }
    guard let limit = Int(text), (1...EngagementRoutes.largestLimit).contains(limit) else {
      throw QueryProblem(
        response: EngagementRoutes.json(
          400,
          EngagementServerCore.errorBody(
            "invalidQuery",
            "limit must be a whole number from 1 to \(EngagementRoutes.largestLimit); got \"\(TerminalText.escaped(text))\"",
            field: "limit")))
    }
    return (limit, before)
  }

  /// 404, not 400: the query is well formed, but what it points at is not here (a `next` from
  /// another run of the server, or one whose item has left the view).
  private static func unknownCursor(_ cursor: String) -> Response {
    EngagementRoutes.json(
      404,
      EngagementServerCore.errorBody(
        "unknownCursor",
        "before \"\(TerminalText.escaped(cursor))\" names nothing this view holds; use the next of the page before",
        field: "before"))
  }

  /// The device's newest exchanges as HAR 1.2, tokens masked: what a bug report attaches.
  private func har(context: EngagementRequestContext) async -> Response {
    let deviceID = DeviceRoutes.pathParameter("deviceID", context) ?? ""
    guard let exchanges = recorder.exchanges(of: deviceID) else {
      return EngagementRoutes.json(
        404,
        EngagementServerCore.errorBody(
          "unknownDevice",
          "no exchange of device \"\(TerminalText.escaped(deviceID))\" is held (the newest exchanges are, within \(ExchangeLog.byteBudget >> 20) MB; at most \(ExchangeLog.perDevice) a device)",
          field: "deviceID"))
    }
    var response = EngagementRoutes.json(200, Array(HARDocument.encode(exchanges)))
    response.headers[.contentType] = "application/har+json"
    return response
  }
}
