import Clocks
import Foundation
import RegistrationCore
import RegistrationEngine
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The kill -9 soak (R1.4): runs the child against one store, kills it with SIGKILL at a
/// random moment, checks that every acknowledged edit is in the store, and repeats; at the end
/// a registration must deliver every acknowledged edit. Seeded, so a failure can be replayed.
enum Soak {
  struct Result {
    var rounds = 0
    var acknowledged = 0
    var unsureTags: [Int: Int] = [:]  // tag slot -> an edit that may or may not have landed
    var lost: [String] = []
    var undelivered: [String] = []
  }

  static let tagSlots = 64

  /// Whether tag `s(N % 64)` is there once edit N is made: each slot alternates, added on
  /// one pass through the slots and removed on the next.
  static func tagPresent(after number: Int) -> Bool { (number / tagSlots) % 2 == 0 }

  /// The tag slots whose stored presence is not what their last acknowledged edit says.
  /// A slot whose newest edit was cut short by the kill (`unsure`) may hold either.
  static func wrongTags(_ tags: some Sequence<String>, acked: [Int: Int], unsure: [Int: Int])
    -> [String]
  {
    let present = Set(tags)
    return acked.sorted(by: { $0.key < $1.key }).compactMap { slot, number in
      if let doubt = unsure[slot], doubt > number { return nil }
      let expected = tagPresent(after: number)
      guard present.contains("s\(slot)") != expected else { return nil }
      return "tag s\(slot) \(expected ? "lost" : "back") after edit \(number)"
    }
  }

  static func configuration() throws -> RegistrationConfiguration {
    try RegistrationConfigurationBuilder()
      .setApplicationId("crash-app").setAccessToken("crash-token-0123456789")
      .setMarketingCloudServerUrl("http://127.0.0.1:9").build()
  }

  static func run(rounds: Int, seed: UInt64, store path: String, probe: URL) async throws
    -> Result
  {
    var random = SplitMix64(seed: seed)
    var result = Result()
    var lastAckedValue: [Int: Int] = [:]  // attribute K(n % 16) -> highest acknowledged n
    var ackedTags: [Int: Int] = [:]  // tag slot -> highest acknowledged n
    var acknowledged = 0
    var unsureTags: [Int: Int] = [:]  // tag slot -> an edit that may or may not have landed
    var next = 0
    for round in 0..<rounds {
      let process = Process()
      process.executableURL = probe
      process.arguments = ["child", path, String(next), "100000"]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      // Kill after a random number of acknowledgements; one round in eight may die before
      // the first, even before the launch is stored.
      let killAfter = random.below(8) == 0 ? 0 : 1 + random.below(30)
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
            ackedTags[number % tagSlots] = number
            acknowledged += 1
            acks += 1
            next = number + 1
            if acks >= killAfter { break readLoop }
          }
        }
      }
      kill(process.processIdentifier, SIGKILL)
      unsureTags[next % tagSlots] = next
      process.waitUntilExit()
      if process.terminationReason != .uncaughtSignal {
        result.lost.append("round \(round): the child ended before it was killed")
      }
      // The edit after the last ack may or may not be stored; every acknowledged one must be.
      next += 1
      result.rounds += 1
      guard let state = try RegistrationStore.open(at: path).load() else {
        if !ackedTags.isEmpty { result.lost.append("round \(round): the store is empty") }
        continue
      }
      for (slot, number) in lastAckedValue {
        let stored = state.record.attributes["K\(slot)"].flatMap { Int($0.dropFirst()) } ?? -1
        if stored < number { result.lost.append("round \(round): K\(slot) lost v\(number)") }
      }
      for problem in wrongTags(state.record.tags, acked: ackedTags, unsure: unsureTags) {
        result.lost.append("round \(round): \(problem)")
      }
    }
    result.acknowledged = acknowledged
    result.undelivered = try await deliver(
      path, lastAckedValue: lastAckedValue, tags: ackedTags, unsure: unsureTags)
    return result
  }

  /// A later registration, in virtual time against an answering server, delivers them all.
  private static func deliver(
    _ path: String, lastAckedValue: [Int: Int], tags: [Int: Int], unsure: [Int: Int]
  )
    async throws -> [String]
  {
    let store = try RegistrationStore.open(at: path)
    let start =
      (try store.load())?.scheduler.retry?.nextAttemptAt ?? Instant(Date().timeIntervalSince1970)
    let clock = VirtualClock(start: start - 1)
    let transport = InMemoryTransport()
    let engine = RegistrationEngine(
      configuration: try configuration(), store: store, transport: transport, clock: clock,
      environment: .demo(.iOS))
    try await engine.launch()
    try await engine.advance(clock, to: start + 2 * 86_400)
    guard let delivered = transport.requests.last?.payload else { return ["nothing was sent"] }
    var missing: [String] = []
    missing += wrongTags(delivered.tags ?? [], acked: tags, unsure: unsure)
    let attributes = Dictionary(
      (delivered.attributes ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    for (slot, number) in lastAckedValue
    where (attributes["K\(slot)"].flatMap { Int($0.dropFirst()) } ?? -1) < number {
      missing.append("K\(slot) v\(number)")
    }
    if !(try await engine.snapshot().state.pending.isEmpty) {
      missing.append("changes still pending")
    }
    return missing
  }
}
