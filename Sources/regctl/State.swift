import ArgumentParser
import Foundation
import RegistrationCore
import RegistrationEngine
import Scenarios
import Session
import SessionValues
import StateDumps
import ToolSupport

struct State: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the stored SDK state, as RegScope or a shipped SDK dumps it; or read a dump.",
    discussion: """
      Without --import: the state under --state as JSON, in RegScope's form (record, pending \
      changes, retry, last acknowledged body) or as the Android (getSdkState) or iOS \
      (sfmc_getSDKState) SDK dumps it.

      With --import FILE: a dump from a real app (Android, the unified SDK's wrapper, or iOS), \
      read and explained: what is pending, when the next registration is due, missing fields, \
      reserved-word attributes, a generic contact key, the orphan risk.
      """)

  @Option(help: "State folder (default: $XDG_STATE_HOME/regscope).")
  var state: String?

  @Option(help: "How many recent sends to include (regscope format).")
  var history = 10

  @Option(help: "regscope, android, unified (Android in the unified SDK's wrapper) or ios.")
  var format = "regscope"

  @Option(name: .customLong("import"), help: "Read this SDK state dump and explain it.")
  var importPath: String?

  @Flag(
    help:
      "One line of JSON: with --import the findings, else the state (which prints as JSON anyway, indented)."
  )
  var json = false

  func validate() throws {
    if let importPath, InputRules.trimmed(importPath).isEmpty {
      throw ValidationError("--import needs the path of an SDK state dump")
    }
    guard SDKStateDump.Format(rawValue: format.lowercased()) != nil else {
      throw ValidationError(
        "--format must be regscope, android, unified or ios; got \"\(TerminalText.escaped(format))\""
      )
    }
  }

  func run() async throws {
    if let importPath { return try explain(importPath) }
    let path = StateDirectory.deviceStore(in: StateDirectory.resolve(state))
    guard FileManager.default.fileExists(atPath: path) else {
      Output.error("regctl: no state at \(path) yet; regctl shell or regscope makes it")
      throw ExitCode(2)
    }
    do {
      let store = try RegistrationStore.open(at: path)
      guard let stored = try store.load() else {
        Output.error("regctl: \(path) holds no launch yet")
        throw ExitCode(2)
      }
      let chosen = SDKStateDump.Format(rawValue: format.lowercased()) ?? .regscope
      if chosen != .regscope {
        let dump = SDKStateDump.write(stored, format: chosen, compact: json)
        if json { Output.jsonLine(dump) } else { Output.report(dump) }
        return
      }
      let snapshot = EngineSnapshot.stored(stored, location: path)
      let report = StateReport.json(
        snapshot, history: try store.history(limit: max(0, history)), planKnown: false,
        compact: json)
      if json { Output.jsonLine(report) } else { Output.report(report) }
    } catch let error as StoreError {
      Output.error("regctl: \(error)")
      throw ExitCode(2)
    }
  }

  private func explain(_ path: String) throws {
    let reading: StateDumpReading
    do {
      reading = try StateDumpImport.read(try StateDumpImport.load(path: path), source: path)
    } catch {
      Output.error("regctl: \(error)")
      throw ExitCode(2)
    }
    if json {
      Output.jsonLine(StateDumpReport.json(reading, compact: true))
    } else {
      Output.report(StateDumpReport.text(reading))
    }
  }
}
