import Clocks
import Fleet
import Foundation
import InspectorUI
import RegistrationCore
import Scenarios
import Session
import SessionValues
import Synchronization
import SystemCalls

/// The inspector's main loop, on a thread of its own: wait in poll() for a key, a message from
/// another thread or the next second of a countdown; dispatch each (update the model, then
/// perform every effect it returns); draw what changed. Nothing runs between wakes.
final class App {
  private let session: any Session
  private let terminal: Terminal
  private var model: InspectorModel
  private let monochrome: Bool
  private let wakes: WakeQueue
  private let work: SessionWork
  /// The fleet `F` plays: the three strategies on one population.
  var fleetPlans = FleetShow.defaultPlans()
  /// A QA run beside the receiver (`--qa PLAN`): Enter after an ask goes to it.
  var qa: QAInInspector?
  /// A demo's pace (`--scenario`): Space with `--step` goes to it.
  private var demoPace: DemoPace?
  /// When the screen next changes by itself (a countdown's next second); nil: never.
  private var tickAt: ContinuousClock.Instant?
  /// The model revision on the screen: the same revision needs only the clock redrawn.
  private var drawnRevision: Int?

  init(
    session: any Session, terminal: Terminal, title: String, hasLocalServer: Bool,
    receivingAt: String?, theme: Theme, monochrome: Bool, wakes: WakeQueue,
    work: SessionWork
  ) {
    self.session = session
    self.terminal = terminal
    let size = terminal.size
    model = InspectorModel(
      width: size.width, height: size.height, title: title, themeName: theme.name,
      glyphs: terminal.utf8 ? .unicode : .ascii, hasLocalServer: hasLocalServer,
      receivingAt: receivingAt, zone: .system,
      themes: [theme]
        + Theme.builtInNames.filter { $0 != theme.name }.compactMap {
          ThemeLoader.builtIn($0)?.theme
        },
      monochrome: monochrome)
    self.monochrome = monochrome
    self.wakes = wakes
    self.work = work
    terminal.apply(theme, monochrome: monochrome)
  }

  func useASCII() { dispatch(.glyphs(.ascii)) }

  /// The app a receiver's user configures, said under its address until one registers.
  func showReceivingApp(_ lines: [String]) { dispatch(.receivingApp(lines)) }

  /// Demo mode: the caption area, and times since the demo's start.
  func showDemo(_ scenario: Scenario, pace: DemoPace?) {
    demoPace = pace
    dispatch(
      .demoStarted(
        DemoCaptions(
          name: TerminalText.escaped(scenario.name), description: scenario.description,
          steps: scenario.steps.count, stepByStep: pace?.holdsForKey ?? false)))
  }

  func flash(_ text: String, isError: Bool) { dispatch(.notice(text, isError: isError)) }

  /// `regscope --fleet`: the Fleet view from the start.
  func openFleet() { dispatch(.openFleet) }

  /// The one way the model changes: `update` (the only code that assigns to it), then every
  /// effect it asked for. True when an effect is to quit.
  @discardableResult
  private func dispatch(_ message: InspectorMessage) -> Bool {
    perform(Inspector.update(&model, message))
  }

  /// Runs until the user quits or a signal asks to stop. Returns why the terminal was lost,
  /// when it was (standard input closed or failing), so the caller can say so and exit 1.
  @discardableResult
  func run(first snapshot: SessionSnapshot, started: ContinuousClock.Instant) -> String? {
    let wakes = self.wakes
    // The session pushes its state; the loop never asks for it again.
    session.watch { wakes.post(.message(.snapshot($0))) }
    dispatch(.snapshot(snapshot))
    draw()
    WorkingSet.trimStartupCode()
    if ProcessInfo.processInfo.environment["REGSCOPE_TIMING"] == "1" {
      // stderr is the log file here, so this never reaches the screen.
      FileHandle.standardError.write(
        Data("first frame after \(ContinuousClock.now - started)\n".utf8))
    }
    while true {
      let ready: SystemCalls.Ready
      switch SystemCalls.waitForInput(orWake: wakes.descriptor, milliseconds: millisecondsToTick) {
      case .failure(let failure): return "waiting for the terminal failed: \(failure)"
      case .success(let found): ready = found
      }
      if ready.inputLost { return "the terminal hung up" }
      if ready.input {
        switch readKeys() {
        case .quit: return nil
        case .closed(let why): return why
        case .goOn: break
        }
      }
      if ready.wake {
        for wake in wakes.take() where handle(wake) { return nil }
      }
      if let tickAt, tickAt <= .now, dispatch(.clock(now: session.now)) { return nil }
      draw()
    }
  }

  /// poll()'s timeout: until the next tick, rounded up so the tick is due when it returns.
  private var millisecondsToTick: Int32 {
    guard let tickAt else { return -1 }
    let wait = tickAt - .now
    guard wait > .zero else { return 0 }
    let (seconds, attoseconds) = wait.components
    return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
  }

  private enum Reading {
    case goOn, quit
    case closed(String)
  }

  /// The keys waiting, acted on. Readable input that yields nothing is a terminal that
  /// closed (EOF) or fails (EIO): the app ends instead of spinning on it.
  private func readKeys() -> Reading {
    let (keys, resized) = terminal.readKeys()
    if resized {
      let size = terminal.size
      if dispatch(.resize(width: size.width, height: size.height)) { return .quit }
    }
    if keys.isEmpty && !resized, let closed = terminal.inputClosed() { return .closed(closed) }
    for key in keys {
      if key == .control("c") { return .quit }
      if dispatch(.key(key)) { return .quit }
    }
    return .goOn
  }

  /// True when the app should quit.
  private func handle(_ wake: Wake) -> Bool {
    switch wake {
    case .terminate:
      return true
    case .resize:
      let size = terminal.refreshSize()
      return dispatch(.resize(width: size.width, height: size.height))
    case .message(let message):
      return dispatch(message)
    }
  }

  /// True when the app should quit.
  private func perform(_ effects: [InspectorEffect]) -> Bool {
    for effect in effects {
      switch effect {
      case .quit:
        return true
      case .run(let command):
        work.submit(.commands([command]))
      case .runAll(let commands):
        work.submit(.commands(commands))
      case .setRate(let rate):
        if dispatch(.rateSet(rate, accepted: session.setRate(rate))) { return true }
      case .jumpToNextDeadline:
        work.submit(.jumpToNextDeadline)
      case .refreshDemographics:
        work.submit(.refreshDemographics)
      case .loadFields(let deviceID):
        work.submit(.fields(deviceID: deviceID))
      case .writeBundle(let deviceID):
        work.submit(.bundle(deviceID: deviceID))
      case .runFleet:
        work.submit(.fleet(fleetPlans, startedAt: session.now))
      case .qaProceed:
        qa?.proceed()
      case .demoProceed:
        demoPace?.proceed()
      case .applyTheme(let theme):
        terminal.apply(theme, monochrome: monochrome)
      }
    }
    return false
  }

  /// Paints only what depends on the time when nothing else changed since the last frame,
  /// else builds the frame; writes what changed either way.
  private func draw() {
    let model = self.model
    if model.revision != drawnRevision
      || terminal.redraw({ Inspector.redrawClock(model, in: &$0) }) == nil
    {
      terminal.draw(Inspector.view(model))
    }
    drawnRevision = model.revision
    scheduleTick()
  }

  /// Wakes again when something on screen would change by itself: the next second of a
  /// countdown (at most 20 times a second at high speed), else the next minute of the clock.
  private func scheduleTick() {
    let rate = session.rate
    // A demo's clock moves only when its scenario walks it, and each move pushes a snapshot:
    // nothing to tick for, so a finished or held demo leaves the CPU idle.
    guard rate > 0, demoPace == nil else {
      tickAt = nil
      return
    }
    let now = session.now.seconds
    let step: Double = model.ticksEverySecond ? 1 : 60
    let scaledWait = (now / step).rounded(.down) * step + step - now
    tickAt = .now + .seconds(max(0.05, scaledWait / rate))
  }
}
