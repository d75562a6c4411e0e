import Clocks
import EngagementCore
import EngagementServer
import HTTPTypes
import NIOCore
import NIOHTTP1
import RegistrationCore
import Synchronization

extension RegistrationFastPath {
  /// What every connection's fast path shares.
  struct Setup: Sendable {
    let server: LocalEngagementServer
    let recorder: ExchangeRecorder
    let options: EngagementHTTPServer.Options
    /// The front's rules, as Hummingbird's middleware and routes apply them.
    let rules: FrontRules
    /// Registrations answered here (`EngagementHTTPServer.fastPathAnswers`).
    let answers: Answers
    /// Where registrations wait for the server's actor, taken a batch a hop: one inbox an
    /// event loop, so a batch is worked on the loop that read it and answered there.
    let inboxes: LoopInboxes

    final class Answers: Sendable {
      let count = Atomic<Int>(0)
      /// Registrations received here whose answer is still being worked out.
      let inFlight = Atomic<Int>(0)
      let settled = ChangeSignal()

      func finished() {
        if inFlight.subtract(1, ordering: .relaxed).newValue == 0 { settled.fire() }
      }

      /// Returns once no registration is in flight here, or after `limit`: a server that
      /// stops waits for what it took, as Hummingbird waits for its handlers.
      func settle(within limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while inFlight.load(ordering: .relaxed) > 0, ContinuousClock.now < deadline {
          let generation = settled.generation
          guard inFlight.load(ordering: .relaxed) > 0 else { return }
          await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.settled.wait(after: generation) }
            group.addTask { try? await Task.sleep(until: deadline) }
            await group.next()
            group.cancelAll()
          }
        }
      }
    }

    init(
      server: LocalEngagementServer, recorder: ExchangeRecorder,
      options: EngagementHTTPServer.Options, answers: Answers
    ) {
      self.server = server
      self.recorder = recorder
      self.options = options
      self.answers = answers
      inboxes = LoopInboxes(server)
      rules = FrontRules(options)
    }

    /// Whether a fast path is worth adding: not for a relay, nor while `--any-app` has an
    /// app to adopt (the full path adopts it).
    var applies: Bool { options.upstream == nil && !server.adoptsFirstApp }

    static let path = "/" + RegistrationRoute.path

    /// The request of a head this path takes, or nil for Hummingbird's: a registration of
    /// HTTP/1 whose body has a declared length the watch keeps whole, no other framing, and
    /// no fault set (a fault answers first, on the full path). Whether the front's rules
    /// refuse it is decided once, when it has been read (`FrontRules`).
    func request(for head: HTTPRequestHead) -> FastPathRequest? {
      guard head.method == .POST, head.uri == Self.path, head.version.major == 1,
        !server.faultSet.load(ordering: .relaxed)
      else { return nil }
      let fields = HeadFields(head.headers)
      guard !fields.framedOtherwise, let declared = fields.contentLength,
        let length = Int(declared), length >= 0, length <= rules.wholeBodyLimit
      else { return nil }
      return FastPathRequest(
        head: head, fields: fields, body: ByteBuffer(), startedAt: server.clock.now(),
        started: .now)
    }
  }
}

/// An inbox for each event loop (`RegistrationInbox`). One shared by both loops had one
/// loop's thread do the actor's work for the other's registrations, which then waited idle
/// for their answers, and freed memory the other thread had taken.
final class LoopInboxes: Sendable {
  private let server: LocalEngagementServer
  private let inboxes = Mutex<[ObjectIdentifier: RegistrationInbox]>([:])

  init(_ server: LocalEngagementServer) { self.server = server }

  func inbox(for loop: any EventLoop) -> RegistrationInbox {
    inboxes.withLock { inboxes in
      if let known = inboxes[ObjectIdentifier(loop)] { return known }
      let inbox = RegistrationInbox(server)
      inboxes[ObjectIdentifier(loop)] = inbox
      return inbox
    }
  }
}
