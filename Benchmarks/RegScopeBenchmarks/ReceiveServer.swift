import Clocks
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore

/// The server's side of the receiving path, as `regctl serve` runs it: each registration
/// received by the local server's actor (the core, the watch and its judge, the events) and
/// written to its SQLite store, a fleet of new devices past the watch's 5,000. No socket and no
/// capture (`ReceivePath` has the capture's entry): under callgrind it shows what the actor
/// and the store cost (`regscope-bench receive-server 8000`).
enum ReceiveServer {
  static func run(_ count: Int) async throws -> Int {
    let clock = VirtualClock()
    let server = try LocalEngagementServer(
      settings: ServerSettings(
        appID: ReceivePath.app, accessToken: ReceivePath.token, processingDelay: 300),
      store: ServerStore.temporary(), clock: clock, announcesFindings: true)
    server.changes.observe { _ in }
    let facts = RequestFacts(userAgent: ReceivePath.userAgent)
    var sink = 0
    for index in 0..<count {
      clock.advance(to: Instant(1_795_341_600 + Double(index) / 100))
      let validation = EngagementServerCore.validate(
        authorization: "Bearer \(ReceivePath.token)", body: ReceivePath.body(index),
        settings: server.validationSettings)
      let (_, token) = await server.receive(validation, facts: facts)
      sink &+= token?.utf8.count ?? 0
    }
    await server.flush()
    return sink
  }
}
