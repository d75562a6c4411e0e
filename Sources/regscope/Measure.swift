import Clocks
import Foundation
import InspectorUI
import RegistrationCore
import Scenarios
import Session

/// `regscope --measure WxH`: renders a busy screen into a headless terminal and reports how
/// long building and drawing a frame takes (the README's figures).
enum Measure {
  static func run(_ size: String) async throws {
    let parts = size.split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2 else {
      throw ValidationErrorText("--measure takes WIDTHxHEIGHT, e.g. 200x60")
    }
    let (width, height) = (parts[0], parts[1])
    var setup = SessionSetup()
    setup.networkLatency = 0
    let simulation = try await Session.start(setup)
    _ = try await simulation.execute(.launch)
    for index in 0..<12 {
      _ = try await simulation.execute(
        .edit(.setAttribute(key: "ATTR_\(index)", value: "value \(index)")))
    }
    for index in 0..<8 { _ = try await simulation.execute(.edit(.addTag("interest-\(index)"))) }
    _ = try await simulation.execute(
      .server(.fail(status: 503, times: 3, retryAfter: nil, duration: nil)))
    try await simulation.advance(to: Instant(400))
    var model = InspectorModel(width: width, height: height, title: "measure")
    _ = Inspector.update(&model, .events(simulation.log.all))
    _ = Inspector.update(&model, .snapshot(await simulation.snapshot()))
    let terminal = try Terminal(headless: (width, height))
    terminal.apply(Theme.standard, monochrome: false)
    let frames = 500
    let clock = ContinuousClock()
    var viewTime = Duration.zero
    var drawTime = Duration.zero
    for frame in 0..<frames {
      model.focus = PaneID(rawValue: frame % 7 + 1) ?? .record
      let start = clock.now
      let buffer = Inspector.view(model)
      let built = clock.now
      terminal.draw(buffer)
      drawTime += clock.now - built
      viewTime += built - start
    }
    terminal.stop()
    await simulation.stop()
    func micro(_ duration: Duration) -> String {
      let seconds =
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
      return String(format: "%.0f µs", seconds / Double(frames) * 1e6)
    }
    print(
      "frame at \(width)x\(height): view \(micro(viewTime)), curses draw \(micro(drawTime)) (mean of \(frames))"
    )
  }

  struct ValidationErrorText: Error, CustomStringConvertible {
    var description: String
    init(_ text: String) { description = text }
  }
}
