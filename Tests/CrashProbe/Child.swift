import Clocks
import Foundation
import RegistrationCore
import RegistrationEngine
import TestSupport

/// Unbuffered: a line the parent reads was written before the kill, never lost in a buffer.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// The child: numbered edits against a store on disk, printing "ack N" only after the engine
/// has acknowledged edit N, which happens only once the edit is durable. Every send fails at
/// once, so retry state is being written while edits are made. Edit N sets attribute K(N % 16)
/// and adds or removes tag `s(N % 64)` (see `Soak.tagPresent`): a fixed set of names, so the
/// record and its queue stay the size of an app's however many rounds run.
enum Child {
  static func run(store path: String, first: Int, count: Int) async throws {
    let store = try RegistrationStore.open(at: path)
    let transport = InMemoryTransport { _ in .transportFailed("connection refused") }
    let engine = RegistrationEngine(
      configuration: try Soak.configuration(), store: store, transport: transport,
      clock: SystemClock(), environment: .demo(.iOS))
    try await engine.launch()
    say("launched")
    for number in first..<(first + count) {
      try await engine.apply(.setAttribute(key: "K\(number % 16)", value: "v\(number)"))
      let tag = "s\(number % Soak.tagSlots)"
      try await engine.apply(Soak.tagPresent(after: number) ? .addTag(tag) : .removeTag(tag))
      if number % 7 == 0 { try await engine.tick() }
      say("ack \(number)")
    }
    say("done")
  }
}
