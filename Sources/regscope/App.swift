import Fleet
import Foundation
import InspectorUI
import RegistrationCore
import Session
import Synchronization

/// The inspector's main loop: wake, read what happened, update the model, carry out the
/// effects, draw. It sleeps between wakes.
final class App {
  private let session: Session
  private let terminal: Terminal
  private var model: InspectorModel
  private var themeIndex: Int
  private var themes: [Theme]
  private let monochrome: Bool
  private let inbox: EventInbox
  private let wakes: AsyncStream<Wake>
  private let wake: @Sendable (Wake) -> Void
  /// The fleet `F` plays: the three strategies on one population.
  var fleetPlans = FleetShow.defaultPlans()
  /// One timer for the whole run, moved to the next wake each frame: no task per tick.
  private let timer = DispatchSource.makeTimerSource(queue: .global())
  /// The last frame drawn and the model revision it shows.
  private var drawn: (revision: Int, frame: CellBuffer)?

  init(
    session: Session, terminal: Terminal, title: String, theme: Theme, monochrome: Bool,
    inbox: EventInbox, wakes: AsyncStream<Wake>, wake: @escaping @Sendable (Wake) -> Void
  ) {
    self.session = session
    self.terminal = terminal
    let size = terminal.size
    model = InspectorModel(
      width: size.width, height: size.height, title: title, themeName: theme.name,
      glyphs: terminal.utf8 ? .unicode : .ascii, hasLocalServer: !session.isRemote,
      receivingAt: session.mode == .receiver
        ? session.engineConfiguration.serverURL.absoluteString : nil)
    themes =
      [theme]
      + Theme.builtInNames.filter { $0 != theme.name }.compactMap { ThemeLoader.builtIn($0)?.theme }
    themeIndex = 0
    self.monochrome = monochrome
    self.inbox = inbox
    self.wakes = wakes
    self.wake = wake
    terminal.apply(theme, monochrome: monochrome)
    let wake = self.wake
    timer.setEventHandler { wake(.tick) }
    timer.schedule(deadline: .distantFuture)
    timer.resume()
  }

  func useASCII() { _ = Inspector.update(&model, .glyphs(.ascii)) }

  func flash(_ text: String, isError: Bool) {
    _ = Inspector.update(&model, .notice(text, isError: isError))
  }

  /// Opens the Fleet view as if `F` were pressed (`regscope --fleet`).
  func openFleet() async {
    _ = await perform(Inspector.update(&model, .key(.character("F"))))
  }

  /// Runs until the user quits or a signal asks to stop.
  func run(input: InputWatcher, started: ContinuousClock.Instant) async {
    let inbox = self.inbox
    let wake = self.wake
    // The session pushes its state; the loop never asks for it again.
    session.watch { snapshot in
      inbox.post(snapshot)
      wake(.state)
    }
    _ = Inspector.update(&model, .snapshot(await session.snapshot()))
    draw()
    if ProcessInfo.processInfo.environment["REGSCOPE_TIMING"] == "1" {
      // stderr is the log file here, so this never reaches the screen.
      FileHandle.standardError.write(
        Data("first frame after \(ContinuousClock.now - started)\n".utf8))
    }
    for await reason in wakes {
      switch reason {
      case .terminate:
        return
      case .resize:
        let size = terminal.refreshSize()
        _ = Inspector.update(&model, .resize(width: size.width, height: size.height))
      case .input:
        let (keys, resized) = terminal.readKeys()
        input.drained()
        if resized {
          let size = terminal.size
          _ = Inspector.update(&model, .resize(width: size.width, height: size.height))
        }
        for key in keys {
          if key == .control("c") { return }
          let effects = Inspector.update(&model, .key(key))
          if await perform(effects) { return }
        }
      case .message(let text, let isError):
        flash(text, isError: isError)
      case .tick:
        _ = Inspector.update(&model, .clock(now: session.now))
      case .fleet(let show):
        _ = Inspector.update(&model, .fleetReady(show))
        _ = Inspector.update(
          &model, .notice("fleet: \(show.plan.devices) devices, playing", isError: false))
      case .state:
        break
      }
      let (events, snapshot) = inbox.drain()
      if !events.isEmpty { _ = Inspector.update(&model, .events(events)) }
      if let snapshot { _ = Inspector.update(&model, .snapshot(snapshot)) }
      draw()
    }
  }

  /// True when the app should quit.
  private func perform(_ effects: [InspectorEffect]) async -> Bool {
    for effect in effects {
      switch effect {
      case .quit:
        return true
      case .run(let command):
        await execute([command])
      case .runAll(let commands):
        await execute(commands)
      case .setRate(let rate):
        let accepted = session.setRate(rate)
        _ = Inspector.update(&model, .rateSet(rate, accepted: accepted))
      case .jumpToNextDeadline:
        _ = Inspector.update(&model, .jumped(to: await session.jumpToNextDeadline()))
      case .runFleet:
        let (plans, wake, now) = (fleetPlans, self.wake, session.now)
        Task.detached {
          var reports: [FleetReport] = []
          for plan in plans { reports.append(await FleetRun.run(plan)) }
          wake(.fleet(FleetShow(plan: plans[0], reports: reports, startedAt: now)))
        }
      case .cycleTheme:
        themeIndex = (themeIndex + 1) % themes.count
        terminal.apply(themes[themeIndex], monochrome: monochrome)
        _ = Inspector.update(
          &model, .themeChanged(name: themes[themeIndex].name, monochrome: monochrome))
      }
    }
    return false
  }

  private func execute(_ commands: [Command]) async {
    var results: [CommandResult] = []
    for command in commands { results.append(await session.run(command)) }
    _ = Inspector.update(&model, .commandsFinished(results))
  }

  /// Builds the frame (only what depends on the time, when nothing else changed since the
  /// last one), and writes what changed.
  private func draw() {
    if model.revision == drawn?.revision, let previous = drawn?.frame,
      let (frame, touched) = Inspector.redrawClock(model, onto: previous)
    {
      terminal.draw(frame, within: touched)
      drawn = (model.revision, frame)
    } else {
      let frame = Inspector.view(model)
      terminal.draw(frame)
      drawn = (model.revision, frame)
    }
    scheduleTick()
  }

  /// Wakes again when something on screen would change by itself: the next second of a
  /// countdown (at most 20 times a second at high speed), else the next minute of the clock.
  private func scheduleTick() {
    let rate = session.rate
    guard rate > 0, session.mode != .virtual else {
      timer.schedule(deadline: .distantFuture)
      return
    }
    let now = session.now.seconds
    let step: Double = model.countdownTarget != nil || hasServerCountdown ? 1 : 60
    let scaledWait = (now / step).rounded(.down) * step + step - now
    let realWait = max(0.05, scaledWait / rate)
    timer.schedule(deadline: .now() + realWait, leeway: .milliseconds(5))
  }

  private var hasServerCountdown: Bool {
    model.server?.stats.pending ?? 0 > 0
  }

  func stop() { timer.cancel() }
}

/// What the session pushed (events, and its newest snapshot), kept until the UI wakes to
/// read it.
final class EventInbox: Sendable {
  private struct Waiting {
    var events: [RunEvent] = []
    var snapshot: SessionSnapshot?
  }
  private let waiting = Mutex(Waiting())

  func append(_ event: RunEvent) { waiting.withLock { $0.events.append(event) } }

  /// Only the newest snapshot matters: an older one is replaced.
  func post(_ snapshot: SessionSnapshot) { waiting.withLock { $0.snapshot = snapshot } }

  func drain() -> (events: [RunEvent], snapshot: SessionSnapshot?) {
    waiting.withLock { waiting in
      defer { waiting = Waiting() }
      return (waiting.events, waiting.snapshot)
    }
  }
}
