import RegistrationCore
import Testing

@testable import EngagementCore

/// The log behind `GET /api/devices/{id}/har`: the newest exchanges within a byte budget, the
/// oldest handed back when one must go, so the caller lets it go outside its lock.
@Suite("the exchange log's budget")
struct ExchangeLogTests {
  /// One body shared by every exchange (the log counts its bytes; the test holds it once).
  static let body = [UInt8](repeating: 0x41, count: 4 << 20)

  static func exchange(_ index: Int, body: [UInt8] = ExchangeLogTests.body) -> CapturedExchange {
    CapturedExchange(
      startedAt: Instant(Double(index)), method: "GET",
      url: "http://h/device/v1/APP/message?deviceid=D\(index)", requestBody: body, status: 200)
  }

  @Test("within the budget nothing goes; past it the oldest is handed back, one for one")
  func oneForOne() {
    var log = ExchangeLog()
    // Each keeps 4 MB and a little: seven fit in 32 MB, the eighth does not.
    for index in 0..<7 { #expect(log.record(Self.exchange(index)) == nil) }
    #expect(log.record(Self.exchange(7))?.startedAt == Instant(0))
    #expect(log.record(Self.exchange(8))?.startedAt == Instant(1))
    #expect(log.exchanges(of: "D1") == nil)
    #expect(log.exchanges(of: "D2")?.count == 1)
  }

  @Test("a large newcomer drops several: the oldest handed back, the rest let go, the budget kept")
  func largeNewcomer() {
    var log = ExchangeLog()
    for index in 0..<7 { log.record(Self.exchange(index)) }
    let large = [UInt8](repeating: 0x42, count: 12 << 20)
    #expect(log.record(Self.exchange(7, body: large))?.startedAt == Instant(0))
    // 28 MB and a little held, 12 MB more: three of the oldest had to go, D3 on are kept.
    #expect((0..<3).allSatisfy { log.exchanges(of: "D\($0)") == nil })
    #expect((3..<8).allSatisfy { log.exchanges(of: "D\($0)")?.count == 1 })
  }
}
