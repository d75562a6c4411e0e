import Clocks
import EngagementServer
import Foundation
import InspectorUI
import RegistrationCore
import RegistrationEngine
import Scenarios
import Synchronization

/// The inspector's main loop: wake, read what happened, update the model, carry out the
/// effects, draw. It sleeps between wakes.
final class App {
  private let session: Simulation
  private let terminal: Terminal
  private var model: InspectorModel
  private var themeIndex: Int
  private var themes: [Theme]
  private let monochrome: Bool
  private let inbox: EventInbox
  private let wakes: AsyncStream<Wake>
  private let wake: @Sendable (Wake) -> Void
  private var timer: Task<Void, Never>?

  init(
    session: Simulation, terminal: Terminal, title: String, theme: Theme, monochrome: Bool,
    inbox: EventInbox, wakes: AsyncStream<Wake>, wake: @escaping @Sendable (Wake) -> Void
  ) {
    self.session = session
    self.terminal = terminal
    let size = terminal.size
    model = InspectorModel(width: size.width, height: size.height, title: title)
    model.hasLocalServer = !session.isRemote
    model.glyphs = terminal.utf8 ? .unicode : .ascii
    model.themeName = theme.name
    themes =
      [theme]
      + Theme.builtInNames.filter { $0 != theme.name }.compactMap { ThemeLoader.builtIn($0)?.theme }
    themeIndex = 0
    self.monochrome = monochrome
    self.inbox = inbox
    self.wakes = wakes
    self.wake = wake
    terminal.apply(theme, monochrome: monochrome)
  }

  func useASCII() { model.glyphs = .ascii }

  func flash(_ text: String, isError: Bool) {
    _ = Inspector.update(&model, .finished(text, isError: isError))
  }

  /// Runs until the user quits or a signal asks to stop.
  func run(input: InputWatcher, started: ContinuousClock.Instant) async {
    await refresh()
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
      case .events, .tick:
        break
      }
      let events = inbox.drain()
      if !events.isEmpty { _ = Inspector.update(&model, .events(events)) }
      await refresh()
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
        (session.clock as? ScaledClock)?.setRate(rate)
        flash(
          rate == 0 ? "time paused" : "time runs at \(Inspector.formatRate(rate))x", isError: false)
      case .jumpToNextDeadline:
        guard let next = await session.jumpToNextDeadline() else {
          flash("nothing is scheduled", isError: false)
          continue
        }
        flash("jumped to \(LiveLine.time(next))", isError: false)
      case .cycleTheme:
        themeIndex = (themeIndex + 1) % themes.count
        terminal.apply(themes[themeIndex], monochrome: monochrome)
        model.themeName = themes[themeIndex].name
        flash(
          "theme \(themes[themeIndex].name)\(monochrome ? " (monochrome: NO_COLOR or no colours)" : "")",
          isError: false)
      }
    }
    return false
  }

  private func execute(_ commands: [Command]) async {
    var messages: [String] = []
    var failed = false
    for command in commands {
      do {
        let outcome = try await session.execute(command)
        messages.append(outcome.text)
        if outcome.isRefusal { failed = true }
      } catch {
        messages.append("\(command): \(error)")
        failed = true
      }
    }
    flash(messages.joined(separator: "; "), isError: failed)
  }

  private func refresh() async {
    let device = try? await session.deviceSnapshot()
    let server = session.isRemote ? nil : await session.server.snapshot()
    let rate = (session.clock as? ScaledClock)?.rate ?? 1
    _ = Inspector.update(
      &model, .refreshed(device: device, server: server, now: session.clock.now(), rate: rate))
  }

  private func draw() {
    terminal.draw(Inspector.view(model))
    scheduleTick()
  }

  /// Wakes again when something on screen would change by itself: the next second of a
  /// countdown (at most 20 times a second at high speed), else the next minute of the clock.
  private func scheduleTick() {
    timer?.cancel()
    guard let clock = session.clock as? ScaledClock, clock.rate > 0 else { return }
    let now = clock.now().seconds
    let step: Double = model.countdownTarget != nil || hasServerCountdown ? 1 : 60
    let scaledWait = (now / step).rounded(.down) * step + step - now
    let realWait = max(0.05, scaledWait / clock.rate)
    let wake = self.wake
    timer = Task {
      try? await Task.sleep(for: .seconds(realWait))
      if !Task.isCancelled { wake(.tick) }
    }
  }

  private var hasServerCountdown: Bool {
    model.server?.stats.pending ?? 0 > 0
  }

  func stop() { timer?.cancel() }
}

/// Events from the engine and the server, gathered until the UI wakes to read them.
final class EventInbox: Sendable {
  private let events = Mutex<[RunEvent]>([])

  func append(_ event: RunEvent) { events.withLock { $0.append(event) } }

  func drain() -> [RunEvent] {
    events.withLock { events in
      defer { events.removeAll() }
      return events
    }
  }
}
