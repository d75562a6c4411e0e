// Release-mode benchmarks for the registration core and engine (issue: engine, item 5).
//   swift run -c release regscope-bench
// Each figure is the best of several runs, to keep the machine's noise out of the number.
import Clocks
import EngagementCore
import EngagementServer
import Foundation
import RegistrationCore
import RegistrationEngine

// `regscope-bench receive-path N`: only the receiving path, for the instruction-count gate.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "receive-path",
  let count = Int(CommandLine.arguments[2]), (1...1_000_000).contains(count)
{
  print("receive-path \(count): checksum \(ReceivePath.run(count))")
  exit(0)
}

// `regscope-bench receive-server N`: the server's actor and store for N new devices.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "receive-server",
  let count = Int(CommandLine.arguments[2]), (1...1_000_000).contains(count)
{
  print("receive-server \(count): checksum \(try await ReceiveServer.run(count))")
  exit(0)
}

// `regscope-bench outage N`: only the 30-day outage through the engine and its SQLite store, N
// times, for profiling it (callgrind, perf).
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "outage",
  let count = Int(CommandLine.arguments[2]), (1...10_000).contains(count)
{
  var attempts = 0
  for _ in 0..<count { attempts += try await Outage.throughEngine() }
  print("outage \(count): \(attempts) attempts")
  exit(0)
}

func measure(runs: Int = 5, _ body: () throws -> Void) rethrows -> Double {
  var best = Double.infinity
  for _ in 0..<runs {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    best = min(
      best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }
  return best
}

func measureAsync(runs: Int = 5, _ body: () async throws -> Void) async rethrows -> Double {
  var best = Double.infinity
  for _ in 0..<runs {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    best = min(
      best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }
  return best
}

let settings = MachineSettings(platform: .iOS, etAppId: "bench-app")

func launched() -> RegistrationMachine {
  RegistrationMachine.firstLaunch(
    settings: settings, deviceID: "BENCH-DEVICE", environment: .demo(.iOS), now: .zero
  ).0
}

// 1. Applying and coalescing edits: a million edits over 64 attributes and 32 tags.
let editCount = 1_000_000
let keys = (0..<64).map { "ATTR_\($0)" }
let values = (0..<97).map { "value-\($0)" }
let tags = (0..<32).map { "tag-\($0)" }
var sink = 0
let editSeconds = measure {
  var machine = launched()
  for index in 0..<editCount {
    let edit: Edit =
      index % 4 == 3
      ? (index % 8 == 3 ? .addTag(tags[index % 32]) : .removeTag(tags[index % 32]))
      : .setAttribute(key: keys[index % 64], value: values[index % 97])
    let (outcome, step) = machine.apply(edit, now: Instant(Double(index) * 1e-6))
    if outcome.isApplied { sink &+= step.events.count }
  }
  sink &+= machine.state.pending.count
}
print(
  "edits through the core: \(Int(Double(editCount) / editSeconds)) edits/s "
    + "(\(String(format: "%.0f", editSeconds / Double(editCount) * 1e9)) ns each)")

// 2. Encoding a registration body: 20 attributes, 10 tags, a contact key and a token.
var record = launched().state.record
record.contactKey = "contactkey@example.com"
record.device.environment.deviceToken = String(repeating: "t22wrs6vr221rr29", count: 4)
for index in 0..<20 { record.attributes["ATTRIBUTE_\(index)"] = "value number \(index)" }
for index in 0..<10 { record.tags.insert("interest-\(index)") }
let bodyCount = 20_000
let bodySeconds = measure {
  for _ in 0..<bodyCount {
    sink &+= RegistrationPayload(record: record, settings: settings).encodedBody().count
  }
}
print(
  "registration body (build + encode): \(String(format: "%.2f", bodySeconds / Double(bodyCount) * 1e6)) µs each"
)

// 3a. A 30-day outage in virtual time, through the core alone.
let thirtyDays = 30.0 * 86_400
var attempts = 0
let outageCoreSeconds = measure {
  var machine = launched()
  attempts = 0
  while let deadline = machine.nextDeadline, deadline.seconds <= thirtyDays {
    let step = machine.tick(now: deadline)
    guard let send = step.send else { break }
    attempts += 1
    _ = machine.sendFinished(
      sendID: send.id, result: .transportFailed("connection refused"), now: deadline)
  }
}
print(
  "30-day outage, core: \(attempts) attempts in \(String(format: "%.3f", outageCoreSeconds * 1e3)) ms"
)

// 3b. The same outage through the engine: actor, in-memory SQLite store, virtual clock.
var engineAttempts = 0
let outageEngineSeconds = try await measureAsync {
  engineAttempts = try await Outage.throughEngine()
}
print(
  "30-day outage, engine + SQLite store: \(engineAttempts) attempts in \(String(format: "%.3f", outageEngineSeconds * 1e3)) ms"
)
// 4. The local server's request path, piece by piece (S1): the pure core, then its store.
let seedBody = Array(
  try Data(contentsOf: URL(fileURLWithPath: "Tests/Fixtures/seed000-registration.json")))
let serverSettings = ServerSettings(
  appID: "995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47", accessToken: "load-token-0123456789")
let requestCount = 20_000
var serverChanges: [EngagementServerCore.Changes] = []
let receiveSeconds = measure(runs: 3) {
  var core = EngagementServerCore(settings: serverSettings)
  serverChanges.removeAll(keepingCapacity: true)
  for index in 0..<requestCount {
    let (_, changes) = core.receive(
      authorization: "Bearer load-token-0123456789", body: seedBody, now: Instant(Double(index)))
    serverChanges.append(changes)
  }
}
print(
  "server receive, core only: \(String(format: "%.1f", receiveSeconds / Double(requestCount) * 1e6)) µs each"
)
let storeSeconds = try measure(runs: 1) {
  let store = try ServerStore.inMemory()
  for changes in serverChanges { try store.apply(changes) }
}
print(
  "server store write, in memory: \(String(format: "%.1f", storeSeconds / Double(requestCount) * 1e6)) µs each"
)
if sink == 42 { print("") }  // keeps the optimizer from discarding the work
