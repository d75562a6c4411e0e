// A child process for the durability test (R1.4). It makes numbered edits against a store on
// disk and prints "ack N" only after the engine has acknowledged edit N, which happens only
// once the edit is durable. The parent kills it with SIGKILL at a random moment and checks
// that every acknowledged edit survived.
import Clocks
import Foundation
import RegistrationCore
import RegistrationEngine

/// Unbuffered: a line the parent reads was written before the kill, never lost in a buffer.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = CommandLine.arguments
guard arguments.count == 4, let first = Int(arguments[2]), let count = Int(arguments[3]) else {
  FileHandle.standardError.write(Data("usage: crash-probe STORE FIRST COUNT\n".utf8))
  exit(2)
}
do {
  let configuration = try RegistrationConfigurationBuilder()
    .setApplicationId("crash-app").setAccessToken("crash-token-0123456789")
    .setMarketingCloudServerUrl("http://127.0.0.1:9").build()
  let store = try RegistrationStore.open(at: arguments[1])
  // Every send fails at once, so retry state is being written while edits are made.
  let transport = InMemoryTransport { _ in .transportFailed("connection refused") }
  let engine = RegistrationEngine(
    configuration: configuration, store: store, transport: transport, clock: SystemClock(),
    environment: .demo(.iOS))
  try await engine.launch()
  say("launched")
  for number in first..<(first + count) {
    try await engine.apply(.setAttribute(key: "K\(number % 16)", value: "v\(number)"))
    try await engine.apply(.addTag("t\(number)"))
    if number % 7 == 0 { try await engine.tick() }
    say("ack \(number)")
  }
  say("done")
} catch {
  FileHandle.standardError.write(Data("crash-probe: \(error)\n".utf8))
  exit(1)
}
