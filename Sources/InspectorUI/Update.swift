import EngagementCore
import Fleet
import RegistrationCore
import SessionValues

public enum InspectorMessage: Sendable {
  case key(Key)
  case resize(width: Int, height: Int)
  /// The session pushed fresh state: the device, the server, the clock's time and rate.
  case snapshot(SessionSnapshot)
  /// The clock moved on and nothing else changed: a countdown's next second.
  case clock(now: Instant)
  case events([RunEvent])
  /// Commands the user asked for have run (one, or an editor's batch).
  case commandsFinished([CommandResult])
  /// The clock's rate was set (0: paused), or the clock could not be set.
  case rateSet(Double, accepted: Bool)
  /// `n` jumped the clock to this deadline, or found none.
  case jumped(to: Instant?)
  case glyphs(Glyphs)
  /// The app a receiver's user configures, said under its address until one registers.
  case receivingApp([String])
  /// A demo begins (`--scenario`): its caption area, and times since its start.
  case demoStarted(DemoCaptions)
  /// `--fleet`: the Fleet view as the inspector opens (as `F` does, but in any mode and at any
  /// size, and never closing it).
  case openFleet
  /// Something outside the session to tell the user (a demo ending, a failed theme load).
  case notice(String, isError: Bool)
  /// A fleet finished computing: the Fleet view plays it from `startedAt`.
  case fleetReady(FleetShow)
  /// A QA run moved on: its checklist as it is now.
  case qa(QAChecklist)
  /// A demo played on: a caption, its checks, its end.
  case demo(DemoNote)
  /// A device's field stories, as the receiver's server tells them (`loadFields`).
  case fields(DeviceFieldStories?, deviceID: String)
}

/// What `update` asks the outside world to do.
public enum InspectorEffect: Sendable, Hashable {
  case run(Command)
  case runAll([Command])
  /// The tester is done with a QA ask: the run goes on.
  case qaProceed
  /// `--step`: the caption on screen has been read; the demo goes on.
  case demoProceed
  case setRate(Double)
  case jumpToNextDeadline
  /// `D`: ask the tenant for its demographics again (`--tenant`).
  case refreshDemographics
  /// Paint with this theme (`T` went round the model's themes).
  case applyTheme(Theme)
  /// Compute the default fleet for the Fleet view.
  case runFleet
  /// Ask the receiver for a device's field stories (the Why view).
  case loadFields(deviceID: String)
  /// `B`: write this device's debug bundle (#54).
  case writeBundle(deviceID: String)
  case quit
}

public enum Inspector {
  /// The one place the model changes (the Elm architecture): pure, so tests call it directly.
  public static func update(_ model: inout InspectorModel, _ message: InspectorMessage)
    -> [InspectorEffect]
  {
    // Only the clock moving leaves the rest of the model as it was: a frame may then repaint
    // just what depends on the time (Inspector.redrawClock).
    if case .clock = message {} else { model.revision &+= 1 }
    switch message {
    case .resize(let width, let height):
      model.width = width
      model.height = height
    case .snapshot(let snapshot):
      show(snapshot, in: &model)
      return fieldsWanted(&model)
    case .fields(let stories, let deviceID): showFields(stories, of: deviceID, &model)
    case .clock(let now): model.now = now
    case .commandsFinished(let results):
      guard !results.isEmpty else { return [] }
      model.flash = InspectorModel.Flash(
        text: results.map(\.text).joined(separator: "; "),
        isError: results.contains(where: \.isError))
    case .rateSet(let rate, let accepted):
      model.flash =
        accepted
        ? InspectorModel.Flash(
          text: rate == 0 ? "time paused" : "time runs at \(formatRate(rate))x", isError: false)
        : InspectorModel.Flash(
          text: "this clock is virtual: it moves by the scenario", isError: true)
    case .jumped(let instant):
      model.flash = InspectorModel.Flash(
        text: instant.map { "jumped to \(model.format($0))" } ?? "nothing is scheduled",
        isError: false)
    case .glyphs(let glyphs): model.glyphs = glyphs
    case .receivingApp(let lines): model.receivingApp = lines
    case .demoStarted(let captions):
      model.demo = captions
      model.timeStyle = .elapsed
    case .openFleet: return openFleet(&model)
    case .fleetReady(let show):
      model.fleet = show
      model.flash = InspectorModel.Flash(
        text: "fleet: \(NumberText.grouped(show.plan.devices)) devices, playing", isError: false)
    case .qa(let checklist): model.receiver.qa = checklist
    case .demo(let note): model.demo?.take(note, now: model.now)
    case .notice(let text, let isError):
      model.flash = InspectorModel.Flash(text: text, isError: isError)
    case .events(let events): append(events, to: &model)
    case .key(let key): return handle(key, &model)
    }
    return []
  }

  /// What the session pushed: the device, the server, the receiver's devices, the clock.
  static func show(_ snapshot: SessionSnapshot, in model: inout InspectorModel) {
    if let acknowledged = snapshot.device?.state.lastAcknowledged,
      acknowledged.hash != model.deviceScreen.acknowledgedBody?.hash
    {
      model.deviceScreen.acknowledgedBody = (
        acknowledged.hash, ReadableJSON.lines(acknowledged.payload.encodedBytes())
      )
    }
    model.snapshot = snapshot
    if model.screen != .fleet { model.screen = model.jobScreen }
    pinSelectedDevice(&model)
    refreshReceiverBody(&model)
    model.now = snapshot.now
    if snapshot.rate > 0 { model.rate = snapshot.rate }
    model.paused = snapshot.rate == 0
  }

  /// The receiver's list puts the most recently seen device first, so it re-sorts whenever a
  /// device registers. The device on show is held by its id from the moment it is shown,
  /// the first one included: the cursor stays on it as rows move, and `j` and `k` move from
  /// it, never from whatever came to stand in its old row.
  static func pinSelectedDevice(_ model: inout InspectorModel) {
    guard let watched = model.watched, let first = watched.first else { return }
    let chosen = model.receiver.selectedDeviceID
    if chosen == nil || !watched.contains(where: { $0.deviceID == chosen }) {
      model.receiver.selectedDeviceID = first.deviceID
    }
  }

  /// New events: kept (the newest `maxEvents`), worded once, and the last sent body made
  /// readable.
  static func append(_ events: [RunEvent], to model: inout InspectorModel) {
    for event in events where event.kind == .sent {
      if let bytes = event.sentBytes {
        model.deviceScreen.sentBodies = (
          model.deviceScreen.sentBodies.last, ReadableJSON.lines(bytes)
        )
      }
    }
    let format = model.format
    model.deviceScreen.events.append(contentsOf: events.map { ShownEvent($0, format: format) })
    if model.deviceScreen.events.count > InspectorModel.maxEvents {
      model.deviceScreen.events.removeFirst(
        model.deviceScreen.events.count - InspectorModel.maxEvents)
    }
    if model.deviceScreen.eventsBack > 0 { model.deviceScreen.eventsBack += events.count }
  }

  static func handle(_ key: Key, _ model: inout InspectorModel) -> [InspectorEffect] {
    if model.isTooSmall {
      return KeyTable.action(for: key, in: .tooSmall) == .quit ? [.quit] : []
    }
    switch model.mode {
    case .normal: return normal(key, &model)
    case .help:
      helpKey(key, &model)
      return []
    case .commandLine(var line): return commandLine(key, &line, &model)
    case .filter(var line):
      switch KeyTable.action(for: key, in: .filter) {
      case .confirm: model.mode = .normal
      case .cancel:
        model.deviceScreen.eventFilter = ""
        model.mode = .normal
      default:
        _ = line.handle(key)
        model.deviceScreen.eventFilter = line.text
        model.mode = .filter(line)
      }
      return []
    case .attributes(var editor): return attributes(key, &editor, &model)
    case .tags(var editor): return tags(key, &editor, &model)
    case .contactKey(var editor): return contactKey(key, &editor, &model)
    }
  }

  /// Why a key does nothing in this session.
  static func refusal(_ key: Key, _ binding: KeyBinding, _ model: InspectorModel) -> String {
    if model.jobScreen == .receiver && !model.receiverLive {
      return "\(key.label): this is a capture, read-only: capture the app again to see a change"
    }
    return model.abilities.refusal(for: binding.needs.subtracting(model.abilities), key: key.label)
  }

  static func normal(_ key: Key, _ model: inout InspectorModel) -> [InspectorEffect] {
    model.flash = nil
    guard let action = KeyTable.action(for: key, in: .normal, on: model.screen) else {
      if KeyTable.normal.contains(where: { $0.keys.contains(key) }) {
        model.flash = InspectorModel.Flash(
          text: "\(key.label): not on this screen (? lists the keys that work here)",
          isError: true)
      }
      return []
    }
    if let binding = KeyTable.binding(for: key, in: .normal, on: model.screen),
      !binding.isEnabled(model.abilities)
    {
      model.flash = InspectorModel.Flash(text: refusal(key, binding, model), isError: true)
      return []
    }
    switch action {
    case .quit: return [.quit]
    case .help:
      model.mode = .help
      model.helpScroll = 0
    case .commandLine:
      model.mode = .commandLine(LineEditor())
      model.historyIndex = nil
    case .filter:
      model.deviceScreen.focus = .events
      model.mode = .filter(LineEditor(model.deviceScreen.eventFilter))
    case .back:
      guard model.screen != .fleet else { return fleetKey(&model) }
      guard model.screen != .receiver else { return fieldsBack(&model) }
      model.deviceScreen.eventFilter = ""
      model.deviceScreen.eventsBack = 0
    case .focusNext, .focusPrevious, .focus, .focusReceiver, .scrollUp, .scrollDown, .pageUp,
      .pageDown, .top, .bottom:
      // Another device chosen: the Fields pane asks for its fields.
      if model.screen == .receiver, receiverKey(action, &model) { return fieldsWanted(&model) }
      deviceKey(action, &model)
    case .toggleAppState:
      return [.run(model.device?.appState == .background ? .foreground : .background)]
    case .pauseResume:
      if model.demo?.stepByStep == true, model.demo?.finished == false { return [.demoProceed] }
      return [.setRate(model.paused ? model.rate : 0)]
    case .faster:
      let next = InspectorModel.rates.first { $0 > model.rate } ?? model.rate
      return [.setRate(next)]
    case .slower:
      let next = InspectorModel.rates.last { $0 < model.rate } ?? model.rate
      return [.setRate(next)]
    case .jumpToDeadline: return [.jumpToNextDeadline]
    case .fail503:
      return [.run(.server(.fail(status: 503, times: 3, retryAfter: nil, duration: nil)))]
    case .fail429:
      return [.run(.server(.fail(status: 429, times: 1, retryAfter: 120, duration: nil)))]
    case .hang: return [.run(.server(.hang))]
    case .toggleDown:
      let isDown =
        model.server?.fault.map { if case .down = $0.kind { true } else { false } } ?? false
      return [.run(.server(isDown ? .up : .down))]
    case .restart: return [.run(.restart)]
    case .editAttributes, .editTags, .editContactKey: openEditor(action, &model)
    case .cycleTheme: return cycleTheme(&model)
    case .fleet: return fleetKey(&model)
    case .qaChecklist, .qaProceed, .qaPreviousStep, .qaNextStep: return qaKey(action, &model)
    case .toggleExpressions: toggleExpressions(&model)
    case .fieldsToggle: return fieldsKey(&model)
    case .openField: return openField(&model)
    case .refreshDemographics: return [.refreshDemographics]
    case .writeBundle: return bundleKey(&model)
    case .confirm, .cancel, .add, .remove, .nextField: break
    }
    return []
  }

  /// `a`, `t`, `c`: the device's attributes, tags or contact key in an editor.
  static func openEditor(_ action: Action, _ model: inout InspectorModel) {
    guard let device = model.device else { return }
    let record = device.state.record
    switch action {
    case .editAttributes: model.mode = .attributes(AttributeEditor(attributes: record.attributes))
    case .editTags:
      let locked = device.settings.systemTags(hwid: record.device.environment.hwid)
      model.mode = .tags(TagEditor(tags: record.tags, locked: locked))
    case .editContactKey: model.mode = .contactKey(ContactKeyEditor(current: record.contactKey))
    default: break
    }
  }

  /// `x` in a demo: its checks as the scenario's expressions, or in words.
  static func toggleExpressions(_ model: inout InspectorModel) {
    guard var demo = model.demo else { return }
    demo.showsExpressions.toggle()
    model.demo = demo
    model.flash = InspectorModel.Flash(
      text: demo.showsExpressions
        ? "checks shown as the scenario's expressions (x: in words)"
        : "checks shown in words (x: as expressions)", isError: false)
  }

  /// Focus and scrolling on the device screen: the panes of the layout, the events' tail.
  static func deviceKey(_ action: Action, _ model: inout InspectorModel) {
    switch action {
    case .focusNext: model.deviceScreen.focus = model.deviceScreen.focus.cycled(by: 1)
    case .focusPrevious: model.deviceScreen.focus = model.deviceScreen.focus.cycled(by: -1)
    case .focus(let pane): model.deviceScreen.focus = pane
    case .scrollUp: scroll(&model, by: -1)
    case .scrollDown: scroll(&model, by: 1)
    case .pageUp: scroll(&model, by: -page(model))
    case .pageDown: scroll(&model, by: page(model))
    case .top: scroll(&model, by: -1_000_000)
    case .bottom: scroll(&model, by: 1_000_000)
    default: break
    }
  }

  /// A page of the focused pane: its height less the line kept for context.
  static func page(_ model: InspectorModel) -> Int {
    max(1, (model.layout.panes[model.deviceScreen.focus]?.inner.height ?? 11) - 1)
  }

  /// Moves the focused pane's view over the lines the layout gives it (`Panes.laidOut`, which
  /// the view draws from): the events by their count, as they draw their own tail.
  static func scroll(_ model: inout InspectorModel, by delta: Int) {
    if model.deviceScreen.focus == .events {
      let count = model.deviceScreen.visibleEvents.count
      model.deviceScreen.eventsBack = min(
        max(0, count - 1), max(0, model.deviceScreen.eventsBack - delta))
      return
    }
    let pane = model.deviceScreen.focus
    guard let laidOut = Panes.laidOut(pane, model) else { return }
    model.deviceScreen.views[pane, default: ScrollView(end: .top)].scroll(
      by: delta, count: laidOut.lines.count, height: laidOut.height)
  }
}

extension Inspector {
  /// `T`: the next of the model's themes, said in a flash and painted by the runtime.
  static func cycleTheme(_ model: inout InspectorModel) -> [InspectorEffect] {
    guard !model.themes.isEmpty else { return [] }
    let index = model.themes.firstIndex { $0.name == model.themeName } ?? -1
    let theme = model.themes[(index + 1) % model.themes.count]
    model.themeName = theme.name
    model.flash = InspectorModel.Flash(
      text:
        "theme \(theme.name)\(model.monochrome ? " (monochrome: NO_COLOR or no colours)" : "")",
      isError: false)
    return [.applyTheme(theme)]
  }
}
