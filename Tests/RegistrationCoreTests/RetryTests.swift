import Foundation
import RegistrationCore
import Testing

@Suite("R4 failure and retry")
struct RetryTests {
  @Test("R4.1 the ladder: 60, 120, 240, ... doubling up to 86 400, then daily")
  func ladder() {
    let expected: [Double] = [
      60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 30720, 61440, 86400, 86400, 86400,
    ]
    #expect((1...14).map { RetryPolicy.backoff(afterFailures: $0) } == expected)
    #expect(RetryPolicy.backoff(afterFailures: 10_000) == 86_400)
    #expect(RetryPolicy.ladder.first == 60 && RetryPolicy.ladder.last == 86_400)
  }

  @Test("R4.1 a 30-day outage: retries follow the ladder, then once a day")
  func thirtyDayOutage() {
    var h = CoreHarness()
    h.respond = { _ in .transportFailed("connection refused") }
    h.advance(to: 30 * 86_400)
    let gaps = zip(h.sendTimes.dropFirst(), h.sendTimes).map { $0 - $1 }
    #expect(Array(gaps.prefix(12)) == RetryPolicy.ladder)
    #expect(gaps.dropFirst(11).allSatisfy { $0 == 86_400 })
    let dailyStart = h.sendTimes[12]
    #expect(h.sendTimes.count == 12 + 1 + Int((30 * 86_400 - dailyStart) / 86_400))
    // Recovery: the next attempt succeeds and the backoff is gone.
    h.respond = { _ in .answered(status: 201, retryAfter: nil) }
    h.advance(to: 32 * 86_400)
    #expect(h.machine.state.scheduler.retry == nil)
    #expect(h.machine.state.pending.isEmpty)
  }

  @Test(
    "R4.1 every non-2xx answer and every transport failure is retried",
    arguments: [
      SendResult.answered(status: 500, retryAfter: nil), .answered(status: 503, retryAfter: nil),
      .answered(status: 429, retryAfter: nil), .answered(status: 302, retryAfter: nil),
      .answered(status: 404, retryAfter: nil), .transportFailed("timed out"),
    ])
  func failuresRetried(result: SendResult) {
    var h = CoreHarness()
    h.respond = { _ in result }
    h.advance(to: 0)
    #expect(h.failedCount == 1)
    #expect(h.machine.nextDeadline == Instant(60))
  }

  @Test("R4.2 Retry-After is honoured, floored at the 60 s throttle and capped at a day")
  func retryAfter() {
    #expect(RetryPolicy.delay(afterFailures: 1, retryAfter: 300) == 300)
    #expect(RetryPolicy.delay(afterFailures: 9, retryAfter: 300) == 300)
    #expect(RetryPolicy.delay(afterFailures: 1, retryAfter: 5) == 60)
    #expect(RetryPolicy.delay(afterFailures: 1, retryAfter: 86_400) == 86_400)
    #expect(RetryPolicy.delay(afterFailures: 1, retryAfter: 86_400.001) == 86_400)
    #expect(RetryPolicy.delay(afterFailures: 1, retryAfter: 10 * 86_400) == 86_400)
    var h = CoreHarness()
    h.respond = { _ in .answered(status: 429, retryAfter: 900_000) }
    h.advance(to: 0)
    #expect(h.machine.nextDeadline == Instant(86_400))
  }

  @Test("R4.2 Retry-After as seconds or as an HTTP date, in all three date forms")
  func retryAfterParsing() {
    let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
    #expect(RetryAfter.seconds(from: "120", now: now) == 120)
    #expect(RetryAfter.seconds(from: " 0 ", now: now) == 0)
    #expect(RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:51:37 GMT", now: now) == 120)
    #expect(RetryAfter.seconds(from: "Sunday, 06-Nov-94 08:52:37 GMT", now: now) == 180)
    #expect(RetryAfter.seconds(from: "Sun Nov  6 08:53:37 1994", now: now) == 240)
    #expect(RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0)
    #expect(RetryAfter.seconds(from: "soon", now: now) == nil)
    #expect(RetryAfter.seconds(from: "-5", now: now) == nil)
  }

  @Test("R4.3 edits during backoff join the pending registration and do not cut the wait")
  func editsDuringBackoff() {
    var h = CoreHarness()
    h.respond = { _ in .answered(status: 503, retryAfter: nil) }
    h.advance(to: 60)  // failures at 0 and 60; next at 180
    #expect(h.machine.nextDeadline == Instant(180))
    h.edit(.addTag("during-backoff"), at: 100)
    #expect(h.machine.nextDeadline == Instant(180))
    h.respond = { _ in .answered(status: 201, retryAfter: nil) }
    h.advance(to: 179.999)
    #expect(h.sentCount == 0)
    h.advance(to: 180)
    #expect(h.sentCount == 1)
    #expect(h.lastPayload?.tags?.contains("during-backoff") == true)
    #expect(h.sends.last?.attempt == 3)
  }

  @Test("R4.4 a success resets the backoff; the 60 s window starts again from it")
  func successResets() {
    var h = CoreHarness()
    var answers: [SendResult] = [
      .answered(status: 500, retryAfter: nil), .answered(status: 500, retryAfter: nil),
      .answered(status: 201, retryAfter: nil), .answered(status: 500, retryAfter: nil),
    ]
    h.respond = { _ in answers.removeFirst() }
    h.advance(to: 180)  // 0 fail, 60 fail, 180 ok
    #expect(h.machine.state.scheduler.retry == nil)
    h.edit(.addTag("x"), at: 190)
    h.advance(to: 250)  // fails: first rung again, 60 s
    #expect(h.machine.state.scheduler.retry?.failures == 1)
    #expect(h.machine.nextDeadline == Instant(310))
  }

  @Test(
    "R4.5 400, 401 and 403 are retried and marked as needing a fix", arguments: [400, 401, 403])
  func needsFix(status: Int) {
    var h = CoreHarness()
    h.respond = { _ in .answered(status: status, retryAfter: nil) }
    h.advance(to: 60)
    #expect(h.failedCount == 2)
    #expect(h.machine.state.scheduler.retry?.needsFix == true)
    #expect(RetryPolicy.needsFix(status: 503) == false)
  }
}
