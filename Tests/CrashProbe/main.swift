// The kill -9 durability probe (R1.4), two roles in one executable:
//   crash-probe soak [--rounds N] [--seed S] [--store PATH]   the soak: prints the seed, the
//     rounds, the edits acknowledged and lost; exits 1 if any was lost or not delivered
//   crash-probe child STORE FIRST COUNT                        what the soak kills
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
func value(_ name: String) -> String? {
  arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

switch arguments.first {
case "child":
  guard arguments.count == 4, let first = Int(arguments[2]), let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: crash-probe child STORE FIRST COUNT\n".utf8))
    exit(2)
  }
  do {
    try await Child.run(store: arguments[1], first: first, count: count)
  } catch {
    FileHandle.standardError.write(Data("crash-probe: \(error)\n".utf8))
    exit(1)
  }
case "soak":
  guard let rounds = Int(value("--rounds") ?? "1000"), (1...1_000_000).contains(rounds) else {
    FileHandle.standardError.write(Data("--rounds takes a whole number from 1 to 1000000\n".utf8))
    exit(2)
  }
  guard let seed = value("--seed").map({ UInt64($0) }) ?? UInt64.random(in: 1...UInt64.max)
  else {
    FileHandle.standardError.write(Data("--seed takes a whole number\n".utf8))
    exit(2)
  }
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "regscope-soak-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let path = value("--store") ?? folder.appendingPathComponent("device.sqlite").path
  print("seed \(seed) (replay with --seed \(seed)), store \(path)")
  let started = Date()
  // The soak's own folder goes when it ends, whatever the result; a --store given stays.
  func finish(_ code: Int32) -> Never {
    try? FileManager.default.removeItem(at: folder)
    exit(code)
  }
  do {
    let probe = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    let result = try await Soak.run(rounds: rounds, seed: seed, store: path, probe: probe)
    for problem in (result.lost + result.undelivered.map { "not delivered: \($0)" }).prefix(20) {
      print(problem)
    }
    print(
      "\(result.rounds) rounds of kill -9 in \(Int(Date().timeIntervalSince(started))) s: "
        + "\(result.acknowledged) edits acknowledged, \(result.lost.count) lost, "
        + "\(result.undelivered.count) not delivered")
    finish(result.lost.isEmpty && result.undelivered.isEmpty ? 0 : 1)
  } catch {
    print("soak stopped: \(error)")
    finish(1)
  }
default:
  FileHandle.standardError.write(
    Data(
      "usage: crash-probe soak [--rounds N] [--seed S] | crash-probe child STORE FIRST COUNT\n".utf8
    ))
  exit(2)
}
