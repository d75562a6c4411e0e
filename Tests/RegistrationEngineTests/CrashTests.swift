import Clocks
import Foundation
import RegistrationCore
import RegistrationEngine
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The crash-probe executable, built beside the test bundle.
func crashProbeURL() throws -> URL {
  let candidates = [
    Bundle.main.bundleURL.deletingLastPathComponent(),
    Bundle.main.bundleURL,
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
  ].map { $0.appendingPathComponent("crash-probe") }
  guard
    let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
  else {
    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates.map(\.path)])
  }
  return found
}

@Suite("R1.4 durability under kill -9")
struct CrashTests {
  @Test("every acknowledged edit survives SIGKILL at random moments and is delivered later")
  func killNineRounds() async throws {
    let probe = try crashProbeURL()
    let path = try temporaryDirectory().appendingPathComponent("state.sqlite").path
    var generator = SystemRandomNumberGenerator()
    var lastAckedValue: [Int: Int] = [:]  // attribute K(n % 16) -> highest acknowledged n
    var ackedTags: Set<Int> = []
    var next = 0
    let rounds = 24
    for round in 0..<rounds {
      let process = Process()
      process.executableURL = probe
      process.arguments = [path, String(next), "100000"]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      // Kill after a random number of acknowledgements; round 0 may die before the first.
      let killAfter = round == 0 ? 0 : Int.random(in: 1...30, using: &generator)
      let reader = output.fileHandleForReading
      var buffer = ""
      var acks = 0
      readLoop: while acks < killAfter || (killAfter == 0 && !buffer.contains("launched")) {
        let chunk = reader.availableData
        if chunk.isEmpty { break }
        buffer += String(decoding: chunk, as: UTF8.self)
        while let newline = buffer.firstIndex(of: "\n") {
          let line = String(buffer[..<newline])
          buffer.removeSubrange(...newline)
          if line.hasPrefix("ack "), let number = Int(line.dropFirst(4)) {
            lastAckedValue[number % 16] = number
            ackedTags.insert(number)
            acks += 1
            next = number + 1
            if acks >= killAfter { break readLoop }
          }
        }
      }
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal, "round \(round): the probe ended early")
      // Whatever the child was doing, the edit after the last ack may or may not be there;
      // every acknowledged one must be.
      next += 1
      let state = try #require(try RegistrationStore.open(at: path).load(), "round \(round)")
      for (slot, number) in lastAckedValue {
        let stored = state.record.attributes["K\(slot)"].flatMap { Int($0.dropFirst()) } ?? -1
        #expect(stored >= number, "round \(round): K\(slot) lost v\(number)")
      }
      #expect(ackedTags.isSubset(of: Set(state.record.tags.compactMap { Int($0.dropFirst()) })))
    }
    #expect(ackedTags.count > 100, "the rounds acknowledged too little to mean anything")
    // A later registration delivers every acknowledged edit.
    let stored = try #require(try RegistrationStore.open(at: path).load())
    let start = stored.scheduler.retry?.nextAttemptAt ?? Instant(Date().timeIntervalSince1970)
    let f = try EngineFixture(
      store: RegistrationStore.open(at: path), clock: VirtualClock(start: start - 1))
    try await f.engine.launch()
    try await f.advance(to: start.seconds + 2 * 86_400)
    let delivered = try #require(f.transport.requests.last?.payload)
    let deliveredTags = Set((delivered.tags ?? []).compactMap { Int($0.dropFirst()) })
    #expect(ackedTags.isSubset(of: deliveredTags))
    let attributes = Dictionary(
      uniqueKeysWithValues: (delivered.attributes ?? []).map { ($0.key, $0.value) })
    for (slot, number) in lastAckedValue {
      #expect((attributes["K\(slot)"].flatMap { Int($0.dropFirst()) } ?? -1) >= number)
    }
    #expect(try await f.engine.snapshot().state.pending.isEmpty)
  }
}
