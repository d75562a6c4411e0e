import Foundation
import InspectorUI
import RegistrationCore
import Scenarios
import Session
import SessionValues
import Testing

/// Compares a screen with its golden text file. `REGSCOPE_RECORD_SNAPSHOTS=1 swift test`
/// writes them anew; a missing golden file fails (so CI never passes on an unrecorded one).
func expectSnapshot(
  _ buffer: CellBuffer, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Snapshots")
  let url = folder.appendingPathComponent(name + ".txt")
  let actual = buffer.text + "\n"
  if ProcessInfo.processInfo.environment["REGSCOPE_RECORD_SNAPSHOTS"] == "1" {
    try? actual.write(to: url, atomically: true, encoding: .utf8)
    return
  }
  guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
    Issue.record(
      "no golden file \(name).txt; record with REGSCOPE_RECORD_SNAPSHOTS=1",
      sourceLocation: sourceLocation)
    return
  }
  if expected != actual {
    let lines = zip(
      expected.split(separator: "\n", omittingEmptySubsequences: false),
      actual.split(separator: "\n", omittingEmptySubsequences: false))
    let first = lines.enumerated().first { $0.element.0 != $0.element.1 }
    let detail =
      first.map {
        "line \($0.offset + 1):\n  expected: \($0.element.0)\n  actual:   \($0.element.1)"
      } ?? "line counts differ"
    Issue.record(
      "\(name) differs from its golden file; \(detail)\n\(actual)", sourceLocation: sourceLocation)
  }
}

/// A model filled from a real run in virtual time, so the screens show true engine state.
func model(
  width: Int, height: Int, setup: SessionSetup = SessionSetup(), until: Double,
  before: [String] = [], _ commands: [(Double, String)] = []
) async throws -> InspectorModel {
  let simulation = try await DeviceSession.start(setup)
  for line in before { _ = try await simulation.execute(try CommandParser.parse(line)) }
  _ = try await simulation.execute(.launch)
  for (at, line) in commands {
    try await simulation.advance(to: Instant(at))
    _ = try await simulation.execute(try CommandParser.parse(line))
  }
  try await simulation.advance(to: Instant(until))
  var model = InspectorModel(
    width: width, height: height, title: "app demo → the local server (in process)")
  model.timeStyle = .elapsed
  _ = Inspector.update(&model, .events(simulation.log.all))
  _ = Inspector.update(&model, .snapshot(await simulation.snapshot()))
  await simulation.stop()
  return model
}
