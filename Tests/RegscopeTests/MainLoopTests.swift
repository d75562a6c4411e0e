import Foundation
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

  @Test("a post from another thread wakes poll(); take gives the wakes in order, state once")
  func wakesInOrder() async throws {
    let queue = try WakeQueue()
    #expect(!Self.readable(queue, within: 0))
    await Task.detached {
      queue.post(.state)
      queue.post(.state)
      queue.post(.message("one", isError: false))
      queue.post(.state)
      queue.post(.resize)
    }.value
    #expect(Self.readable(queue, within: 1000))
    let taken = queue.take().map { wake -> String in
      switch wake {
      case .state: "state"
      case .resize: "resize"
      case .message(let text, _): text
      default: "other"
      }
    }
    #expect(taken == ["state", "one", "state", "resize"])
    // Read to the end: nothing wakes the loop again until the next post.
    #expect(!Self.readable(queue, within: 0))
    #expect(queue.take().isEmpty)
    queue.post(.terminate)
    #expect(Self.readable(queue, within: 1000))
  }

  @Test("thousands of posts never block the poster nor fill the pipe")
  func manyPosts() throws {
    let queue = try WakeQueue()
    for index in 0..<100_000 { queue.post(.message("\(index)", isError: false)) }
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
      if case .finished(.commandsFinished(let results)) = wake { return results }
      return nil
    }
    #expect(outcomes.map(\.count) == [1, 2, 1])
    #expect(outcomes.last?.first?.isError == true)
    let tags = try #require(try await session.deviceSnapshot()).state.record.tags
    #expect(tags.contains("second") && !tags.contains("first"))
    await session.stop()
  }
}
