import ArgumentParser
import Foundation
import RegistrationCore
import RegistrationEngine
import Scenarios
import ToolSupport

struct State: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract:
      "Print the stored SDK state as JSON: record, pending changes, retry, last acknowledged body.")

  @Option(help: "State folder (default: $XDG_STATE_HOME/regscope).")
  var state: String?

  @Option(help: "How many recent sends to include.")
  var history = 10

  func run() async throws {
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
      let snapshot = EngineSnapshot.stored(stored, location: path)
      Output.report(
        StateReport.json(
          snapshot, history: try store.history(limit: max(0, history)), planKnown: false))
    } catch let error as StoreError {
      Output.error("regctl: \(error)")
      throw ExitCode(2)
    }
  }
}
