import EngagementCore
import Foundation
import InspectorUI
import RegistrationCore
import Session
import SessionValues
import Testing

@testable import regscope

#if canImport(Glibc)
  import Glibc
#endif

@Suite("the UI thread's wakes and the session's work")
struct MainLoopTests {
  /// True when the queue's descriptor is readable within `milliseconds`.
  static func readable(_ queue: WakeQueue, within milliseconds: Int32) -> Bool {
    var fd = pollfd(fd: queue.descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&fd, 1, milliseconds) == 1
  }

  static func label(_ wake: Wake) -> String {
    switch wake {
    case .resize: "resize"
    case .terminate: "terminate"
    case .message(.notice(let text, _)): text
    case .message(.events(let events)): "events \(events.count)"
    case .message(.snapshot(let snapshot)): "snapshot \(snapshot.now.seconds)"
    default: "other"
    }
  }

  @Test(
    "one stream: posts wake poll() and come in order; the newest snapshot only, events batched")
  func wakesInOrder() async throws {
    let queue = try WakeQueue()
    #expect(!Self.readable(queue, within: 0))
    let event = RunEvent(t: .zero, body: .server(.faulted("n")))
    let snapshot = { (at: Double) in
      SessionSnapshot.device(.init(device: nil, server: nil, now: Instant(at), rate: 1))
    }
    await Task.detached {
      queue.post(.message(.snapshot(snapshot(1))))
      queue.post(.message(.events([event])))
      queue.post(.message(.events([event, event])))
      queue.post(.message(.notice("one", isError: false)))
      queue.post(.message(.snapshot(snapshot(2))))
      queue.post(.message(.events([event])))
      queue.post(.resize)
    }.value
    #expect(Self.readable(queue, within: 1000))
    let taken = queue.take().map(Self.label)
    #expect(taken == ["events 3", "one", "snapshot 2.0", "events 1", "resize"])
    // Read to the end: nothing wakes the loop again until the next post.
    #expect(!Self.readable(queue, within: 0))
    #expect(queue.take().isEmpty)
    queue.post(.terminate)
    #expect(Self.readable(queue, within: 1000))
  }

  @Test("thousands of posts never block the poster nor fill the pipe")
  func manyPosts() throws {
    let queue = try WakeQueue()
    for index in 0..<100_000 { queue.post(.message(.notice("\(index)", isError: false))) }
    #expect(queue.take().count == 100_000)
  }

  @Test("the session runs the jobs in the order asked; quitting runs what was asked before")
  func jobsInOrderAndFinished() async throws {
    let session = try await DeviceSession.start(SessionSetup())
    _ = try await session.execute(.launch)
    let queue = try WakeQueue()
    let work = SessionWork(session: session, report: { queue.post($0) })
    work.submit(.commands([.edit(.addTag("first"))]))
    work.submit(.commands([.edit(.removeTag("first")), .edit(.addTag("second"))]))
    work.submit(.commands([.edit(.setAttribute(key: "", value: "no key"))]))
    await work.finish()
    let outcomes = queue.take().compactMap { wake -> [CommandResult]? in
      if case .message(.commandsFinished(let results)) = wake { return results }
      return nil
    }
    #expect(outcomes.map(\.count) == [1, 2, 1])
    #expect(outcomes.last?.first?.isError == true)
    let tags = try #require(try await session.deviceSnapshot()).state.record.tags
    #expect(tags.contains("second") && !tags.contains("first"))
    await session.stop()
  }

  static func fleets(_ wakes: [Wake]) -> [FleetShow] {
    wakes.compactMap { wake -> FleetShow? in
      if case .message(.fleetReady(let show)) = wake { return show }
      return nil
    }
  }

  /// Session work whose wakes the test awaits: no cooperative thread is held in poll() while
  /// the fleet needs them.
  static func streamedWork(_ session: any Session) -> (
    SessionWork, AsyncStream<Wake>, AsyncStream<Wake>.Continuation
  ) {
    let (wakes, posted) = AsyncStream.makeStream(of: Wake.self)
    return (SessionWork(session: session, report: { posted.yield($0) }), wakes, posted)
  }

  @Test("a fleet asked for is computed beside the jobs and reported with its start")
  func fleetReported() async throws {
    let session = try await DeviceSession.start(SessionSetup())
    let (work, wakes, _) = Self.streamedWork(session)
    var plans = FleetShow.defaultPlans()
    for index in plans.indices { plans[index].devices = 200 }
    work.submit(.fleet(plans, startedAt: Instant(7)))
    var shown: FleetShow?
    for await wake in wakes {
      shown = Self.fleets([wake]).first
      if shown != nil { break }
    }
    let show = try #require(shown)
    #expect(show.reports.count == plans.count && show.startedAt == Instant(7))
    #expect(show.reports.allSatisfy { $0.devices == 200 })
    await work.finish()
    await session.stop()
  }
}
