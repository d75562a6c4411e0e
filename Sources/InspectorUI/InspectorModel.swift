import EngagementCore
import Fleet
import RegistrationCore
import SessionValues

/// What the inspector shows and what the user is doing: one value, changed only by `update`.
public struct InspectorModel: Sendable {
  public enum Mode: Sendable {
    case normal
    case commandLine(LineEditor)
    case filter(LineEditor)
    case help
    case attributes(AttributeEditor)
    case tags(TagEditor)
    case contactKey(ContactKeyEditor)
  }

  /// The screen on show: the session's job (a device, or real apps received), or the Fleet view
  /// over it.
  public enum Screen: Sendable, Hashable {
    case device
    case receiver
    case fleet
  }

  public struct Flash: Sendable, Hashable {
    public var text: String
    public var isError: Bool
  }

  public static let rates: [Double] = [1, 10, 60, 600, 3600]
  public static let maxEvents = 2_000

  public var width: Int
  public var height: Int
  /// Counts every change but the clock's: equal revisions differ at most in `now`.
  public internal(set) var revision = 0
  public var mode: Mode = .normal
  /// The help's first row shown, when its keys do not all fit.
  public var helpScroll = 0
  /// What the session pushed last, kept as it came (one case per job): what the panes read.
  public internal(set) var snapshot: SessionSnapshot?
  public var device: EngineSnapshot? { snapshot?.device }
  public var server: ServerSnapshot? { snapshot?.server }
  /// A receiver session's address, for the app's server URL.
  public let receivingAt: String?
  /// The app to configure, said under the receiver's address while no app has registered
  /// (the demo app's id and token; a header cuts them on a narrow screen).
  public var receivingApp: [String] = []
  public var screen: Screen
  /// The Fleet view's fleet, once computed.
  public var fleet: FleetShow?
  /// A receiver session's real devices (the most recently seen first); nil otherwise.
  public var watched: [DeviceWatch.Device]? { snapshot?.watched }
  /// `--any-app`: which app the receiver adopted, or that it waits to.
  public var receiverNotice: String? { snapshot?.receiverNotice }
  /// False for a capture: its devices are all there are, and its clock stands still.
  public var receiverLive: Bool { snapshot?.isLive ?? true }
  /// The device screen's focus, scrolling, events and bodies.
  public var deviceScreen = DeviceScreen()
  /// The receiver screen's focus, scrolling, chosen device and its body.
  public var receiver = ReceiverScreen()
  /// False when the session talks to a remote server: the fault keys do nothing then.
  public var hasLocalServer = true

  /// What the keys may drive in this session: a receiver has no device and runs in real time.
  public var abilities: SessionAbilities {
    var abilities: SessionAbilities = hasLocalServer ? [.localServer] : []
    if jobScreen == .device { abilities.formUnion([.device, .clockControl]) }
    if receiver.qa != nil { abilities.insert(.qaRun) }
    // A demo keeps its clock keys; the rest would take its scenario off script.
    if demo != nil { return [.clockControl, .demo] }
    return abilities.union(.unscripted)
  }
  public var now: Instant = .zero
  public var rate: Double = 1
  public var paused = false
  public var flash: Flash?
  public var glyphs: Glyphs = .unicode
  public var themeName = "default"
  /// The themes `T` goes round, the one in use first; `themeName` is the current one's.
  public var themes: [Theme] = []
  /// Colours are off (NO_COLOR, or a terminal without them): said when the theme changes.
  public var monochrome = false
  public var title: String
  public var commandHistory: [String] = []
  /// A command line that was said to need a second run (`Inspector.asksAgain`).
  public var commandWarned: String?
  public var historyIndex: Int?

  /// How times are written: the wall clock in a live session, time since the start for
  /// virtual runs (and golden tests, which must not depend on the machine's time zone).
  public enum TimeStyle: Sendable { case wallClock, elapsed }
  public var timeStyle: TimeStyle = .wallClock
  /// The zone wall-clock times are shown in: the machine's, as the tool gives it.
  public var zone: LocalZone
  /// A demo's caption area (`regscope --scenario`).
  public var demo: DemoCaptions?

  /// Where the device screen's panes go at this size (the caption area taken off).
  public var layout: Layout {
    Layout.make(
      width: width, height: height, focus: deviceScreen.focus,
      captionRows: demo == nil ? 0 : DemoCaptions.rows(height: height), headerRows: headerRows)
  }

  /// The header's rows: one, or two when the title does not fit beside the clock.
  public var headerRows: Int { HeaderText.make(self).left.count }

  /// Where the receiver's panes go at this size, under the header.
  var receiverRects: [ReceiverScreen.Pane: Rect] {
    ReceiverScreen.rects(width: width, height: height, top: headerRows)
  }

  public func format(_ instant: Instant) -> String {
    switch timeStyle {
    case .wallClock: LiveLine.time(instant, in: zone)
    case .elapsed: Timestamp.format(instant)
    }
  }

  /// The header's clock: whole seconds, as a clock shows them (the events keep their
  /// milliseconds). Rounded to the millisecond before the seconds are taken, so a clock that
  /// float arithmetic left a hair short of 70 s reads 0:01:10.
  public func clock(_ instant: Instant) -> String {
    switch timeStyle {
    case .wallClock: LiveLine.time(instant, in: zone)
    case .elapsed:
      Timestamp.format(Instant(((instant.seconds * 1000).rounded() / 1000).rounded(.down)))
    }
  }

  public static let minimumWidth = 80
  public static let minimumHeight = 24

  /// A model as a session starts: everything after this changes only in `update`.
  public init(
    width: Int, height: Int, title: String, themeName: String = "default",
    glyphs: Glyphs = .unicode, hasLocalServer: Bool = true, receivingAt: String? = nil,
    zone: LocalZone = .utc, themes: [Theme] = [], monochrome: Bool = false
  ) {
    self.themes = themes
    self.monochrome = monochrome
    self.receivingAt = receivingAt
    screen = receivingAt == nil ? .device : .receiver
    self.width = width
    self.height = height
    self.title = title
    self.themeName = themeName
    self.glyphs = glyphs
    self.hasLocalServer = hasLocalServer
    self.zone = zone
  }

  /// The screen of the session's job, which `F` returns to from the Fleet view.
  public var jobScreen: Screen { receivingAt != nil || watched != nil ? .receiver : .device }

  public var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }

  public var keyContext: KeyContext {
    if isTooSmall { return .tooSmall }
    switch mode {
    case .normal: return .normal
    case .commandLine: return .commandLine
    case .filter: return .filter
    case .help: return .help
    case .attributes: return .attributeEditor
    case .tags: return .tagEditor
    case .contactKey: return .contactKeyEditor
    }
  }

  /// The receiver layout's device: the one selected, else the most recently seen.
  public var selectedDevice: DeviceWatch.Device? {
    guard let watched else { return nil }
    return watched.first { $0.deviceID == receiver.selectedDeviceID } ?? watched.first
  }

  /// The next instant the screen shows a countdown to, if any: the UI wakes each second then.
  /// Whether something on screen counts seconds down (the device's next send, the server's
  /// processing, the Fleet view playing, a watched device's expected next send). A live UI
  /// ticks every second then, else once a minute, and its clock shows minutes only.
  public var ticksEverySecond: Bool {
    countdownTarget != nil || (server?.stats.pending ?? 0) > 0
  }

  public var countdownTarget: Instant? {
    if screen == .receiver, receiver.qaShown, let qa = receiver.qa, !qa.finished,
      qa.deadline != nil
    {
      return now + 1
    }
    if screen == .fleet, let fleet, fleet.cursor(at: now) < fleet.plan.duration {
      return now + 1
    }
    if screen == .receiver {
      return selectedDevice?.nextSend.map(\.at).flatMap {
        $0 > now ? $0 : nil
      }
    }
    guard let device else { return nil }
    if case .due(let at, _, _) = device.plan, at > now { return at }
    return nil
  }
}

/// An event with its words made once, when it arrived: frames and the filter read these.
public struct ShownEvent: Sendable {
  public let event: RunEvent
  public let time: String
  public let detail: String
  /// Type and detail, lower-cased, for the filter.
  let searchText: String

  init(_ event: RunEvent, format: (Instant) -> String) {
    self.event = event
    time = format(event.t)
    detail = event.detail(time: format)
    searchText = (event.type + " " + detail).lowercased()
  }

  public var type: String { event.type }
  public var kind: EventKind { event.kind }
}
