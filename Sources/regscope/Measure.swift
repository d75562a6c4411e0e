import Clocks
import Foundation
import InspectorUI
import RegistrationCore
import Scenarios
import Session
import SessionValues

/// `regscope --measure WxH`: renders a busy screen into a headless terminal and reports how
/// long building and drawing a frame takes (the README's figures).
enum Measure {
  /// A device with a dozen attributes, eight tags and three failed sends behind it.
  static func busyDevice() async throws -> DeviceSession {
    var setup = SessionSetup()
    setup.networkLatency = 0
    guard
      let simulation = try await SessionFactory().open(.device(setup, try .virtual())).device
    else { throw SessionError.noDevice("measure") }
    _ = try await simulation.execute(.launch)
    for index in 0..<12 {
      _ = try await simulation.execute(
        .edit(.setAttribute(key: "ATTR_\(index)", value: "value \(index)")))
    }
    for index in 0..<8 { _ = try await simulation.execute(.edit(.addTag("interest-\(index)"))) }
    _ = try await simulation.execute(
      .server(.fail(status: 503, times: 3, retryAfter: nil, duration: nil)))
    try await simulation.advance(to: Instant(400))
    return simulation
  }

  static func run(_ size: String) async throws {
    let parts = size.split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2 else {
      throw ValidationErrorText("--measure takes WIDTHxHEIGHT, e.g. 200x60")
    }
    let (width, height) = (parts[0], parts[1])
    let simulation = try await busyDevice()
    var model = InspectorModel(width: width, height: height, title: "measure")
    // What the session pushes asks for no effects: none is dropped here.
    func feed(_ message: InspectorMessage) {
      let effects = Inspector.update(&model, message)
      assert(effects.isEmpty, "\(message) asked for \(effects)")
    }
    feed(.events(simulation.log.all))
    feed(.snapshot(await simulation.snapshot()))
    let terminal = try Terminal(headless: (width, height))
    terminal.apply(Theme.standard, monochrome: false)
    let frames = 500
    let clock = ContinuousClock()
    func time(_ work: () -> Void) -> Duration {
      let start = clock.now
      work()
      return clock.now - start
    }
    // A whole frame built, and drawn onto a screen that shows something else: each pane in
    // turn focused by its key, as a user moves round them.
    var builds: [Duration] = []
    var wholeDraws: [Duration] = []
    let panes = PaneID.allCases
    for frame in 0..<frames {
      feed(.key(panes[frame % panes.count].key))
      var buffer = CellBuffer(width: 0, height: 0)
      builds.append(time { buffer = Inspector.view(model) })
      terminal.forgetScreen()
      wholeDraws.append(time { terminal.draw(buffer) })
    }
    // A countdown's next second, as an idle wake does it: the clock moves, what depends on it
    // is painted again in place, only the changed cells are written.
    feed(.key(PaneID.record.key))
    terminal.draw(Inspector.view(model))
    var ticks: [Duration] = []
    var cells: [Int] = []
    for _ in 0..<frames {
      var written = 0
      ticks.append(
        time {
          feed(.clock(now: model.now + 1))
          written =
            terminal.redraw { Inspector.redrawClock(model, in: &$0) }
            ?? terminal.draw(Inspector.view(model))
        })
      cells.append(written)
    }
    terminal.stop()
    await simulation.stop()
    func median(_ values: [Duration]) -> String {
      let sorted = values.sorted()
      let middle = sorted[sorted.count / 2]
      let seconds =
        Double(middle.components.seconds) + Double(middle.components.attoseconds) / 1e18
      return String(format: "%.3f ms", seconds * 1e3)
    }
    print(
      """
      frame at \(width)x\(height) (median of \(frames)):
        build a frame                 \(median(builds))
        draw a whole frame            \(median(wholeDraws))
        countdown tick: redraw+write  \(median(ticks)) (\(cells.sorted()[cells.count / 2]) cells written)
      """
    )
  }

  struct ValidationErrorText: Error, CustomStringConvertible {
    var description: String
    init(_ text: String) { description = text }
  }
}
