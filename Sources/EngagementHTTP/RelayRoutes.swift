import EngagementCore
import EngagementServer
import Foundation
import Hummingbird
import NIOCore
import RegistrationCore

/// `--upstream`: the device routes relayed to a tenant, chosen at start in place of the local
/// ones. An injected fault answers first; otherwise the tenant answers, and what it answered
/// joins the device's timeline.
struct RelayRoutes {
  let server: LocalEngagementServer
  let upstream: Upstream
  let options: EngagementHTTPServer.Options
  /// The front's rules, built once (`EngagementRoutes.router`).
  let rules: FrontRules

  func add(to collection: RouteCollection<EngagementRequestContext>) {
    let (server, upstream, options, rules) = (
      self.server, self.upstream, self.options, self.rules
    )
    collection.post(RouterPath(stringLiteral: RegistrationRoute.path)) { request, context in
      await Self.relayRegistration(
        request, context: context, server: server, upstream: upstream, options: options,
        rules: rules)
    }
    for (method, path, name, _) in DeviceRoutes.others {
      collection.on(RouterPath(path), method: method) { request, context -> Response in
        let body: ByteBuffer
        switch await DeviceRoutes.receiveOther(
          name, request, context: context, server: server, rules: rules)
        {
        case .failure(let refusal): return refusal.response
        case .success(let read): body = read
        }
        switch await upstream.forward(
          request, body: body, appClosed: ClientGoneHandler.future(for: context.channel))
        {
        case .success(let answer): return answer.response
        case .failure(let failure): return failure.response
        }
      }
    }
  }

  /// `--upstream`: an injected fault answers first; otherwise the tenant answers, and what
  /// it answered joins the device's timeline.
  static func relayRegistration(
    _ request: Request, context: EngagementRequestContext, server: LocalEngagementServer,
    upstream: Upstream, options: EngagementHTTPServer.Options, rules: FrontRules
  ) async -> Response {
    guard let body = await EngagementRoutes.readBody(request, rules) else {
      return EngagementRoutes.tooLarge(rules, context: context)
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
        body: bytes, facts: DeviceRoutes.facts(request), receivedAt: receivedAt, status: status,
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
        body: bytes, facts: DeviceRoutes.facts(request), receivedAt: receivedAt,
        status: answer.status,
        retryAfter: answer.header("Retry-After").flatMap { RetryAfter.parse($0, now: tenantNow) },
        issuedToken: answer.header("X-Subscriber-Token"),
        refusal: RetryPolicy.isSuccess(status: answer.status)
          ? nil : "the tenant answered \(answer.status), relayed to the app as it came")
      return answer.response
    case .failure(let failure):
      await server.recordRelayed(
        body: bytes, facts: DeviceRoutes.facts(request), receivedAt: receivedAt,
        status: failure.status,
        retryAfter: nil, issuedToken: nil, local: true,
        refusal: "RegScope's relay answered it (\(failure.said.code)): \(failure.said.message)")
      return failure.response
    }
  }
}
