import EngagementCore
import RegistrationCore

/// The receiver screen's own state: which pane has focus, where each pane is scrolled, which
/// device is chosen, and that device's last body made readable once.
public struct ReceiverScreen: Sendable {
  /// The panes, numbered as the keys that focus them.
  public enum Pane: Int, CaseIterable, Sendable, Hashable {
    case devices = 1
    case timeline
    case findings
    case body

    /// The key that focuses it: its number.
    public var key: Key { .character(Character(String(rawValue))) }
  }

  public var focus: Pane = .devices
  public var views: [Pane: ScrollView] = [
    .timeline: ScrollView(end: .bottom), .findings: ScrollView(end: .top),
    .body: ScrollView(end: .top),
  ]
  /// The device shown, by id, so it stays chosen as the list moves.
  public var selectedDeviceID: String?
  /// The chosen device's last body as readable lines, made when it changes (not per frame),
  /// with the device and the time of the registration they show.
  public var body: (deviceID: String, at: Instant, lines: [String])?
  /// A QA run beside the receiver (`--qa PLAN`): its checklist, whether it is shown (in the
  /// body's place), and the step opened in it.
  public var qa: QAChecklist?
  public var qaShown = true
  public var qaOpened: Int?
  /// The Why view (`W`) in the body's place: the chosen device's field stories, asked of the
  /// receiver when the device or its newest request changes.
  public var fieldsShown = false
  public var fields: DeviceFieldStories?
  /// The session answered the last ask, even if with nothing (a capture keeps no server).
  public var fieldsAnswered = false
  public var fieldsLoadedFor: (deviceID: String, lastSeen: Instant, processed: Int)?
  /// The field under the Fields pane's cursor (`FieldStory.id`; nil: the first), and whether
  /// Enter opened its story.
  public var fieldChosen: String?
  public var fieldOpened = false
  /// Where the QA checklist is scrolled; until it is, it shows the step under way.
  public var qaView = ScrollView(end: .top, releasesAtEnd: false)

  public func view(_ pane: Pane) -> ScrollView { views[pane] ?? ScrollView(end: .top) }

  /// Where each pane goes on a screen of this size (below the header, above the status bar).
  public static func rects(width: Int, height: Int, top: Int = 1) -> [Pane: Rect] {
    let body = height - 1 - top
    let left = max(30, width * 36 / 100)
    let right = width - left
    let timelineHeight = body * 40 / 100
    let findingsHeight = body * 30 / 100
    return [
      .devices: Rect(x: 0, y: top, width: left, height: body),
      .timeline: Rect(x: left, y: top, width: right, height: timelineHeight),
      .findings: Rect(x: left, y: top + timelineHeight, width: right, height: findingsHeight),
      .body: Rect(
        x: left, y: top + timelineHeight + findingsHeight, width: right,
        height: body - timelineHeight - findingsHeight),
    ]
  }
}

extension Inspector {
  /// The receiver's focus and scroll keys. Up, Down, Page Up, Page Down, `g` and `G` move the
  /// chosen device in the device list, and the view in any other pane.
  static func receiverKey(_ action: Action, _ model: inout InspectorModel) -> Bool {
    switch action {
    case .focusNext: model.receiver.focus = model.receiver.focus.cycled(by: 1)
    case .focusPrevious: model.receiver.focus = model.receiver.focus.cycled(by: -1)
    case .focusReceiver(let pane): model.receiver.focus = pane
    case .scrollUp, .scrollDown, .pageUp, .pageDown, .top, .bottom:
      if model.receiver.focus == .body, model.receiver.fieldsShown, !model.receiver.fieldOpened,
        model.receiver.fields?.fields.isEmpty == false
      {
        chooseField(action, &model)
      } else if model.receiver.focus == .devices {
        selectDevice(action, &model)
      } else {
        scrollReceiverPane(action, &model)
      }
    default: return false
    }
    return true
  }

  static func selectDevice(_ action: Action, _ model: inout InspectorModel) {
    guard let watched = model.watched, !watched.isEmpty else { return }
    let current = watched.firstIndex { $0.deviceID == model.selectedDevice?.deviceID } ?? 0
    let page = 5
    let next: Int =
      switch action {
      case .scrollUp: current - 1
      case .scrollDown: current + 1
      case .pageUp: current - page
      case .pageDown: current + page
      case .top: 0
      default: watched.count - 1
      }
    let chosen = watched[min(max(0, next), watched.count - 1)].deviceID
    if chosen != model.receiver.selectedDeviceID {
      for pane in ReceiverScreen.Pane.allCases { model.receiver.views[pane]?.reset() }
    }
    model.receiver.selectedDeviceID = chosen
    refreshReceiverBody(&model)
  }

  /// Moves the focused pane's view over the lines the layout gives it
  /// (`ReceiverPanes.laidOut`, which the view draws from).
  static func scrollReceiverPane(_ action: Action, _ model: inout InspectorModel) {
    let pane = model.receiver.focus
    guard let laidOut = ReceiverPanes.laidOut(pane, model), var view = model.receiver.views[pane]
    else { return }
    let (count, height) = (laidOut.lines.count, laidOut.height)
    if pane == .body, let qa = model.receiver.qa, model.receiver.qaShown {
      // The checklist opens at its step: scrolling starts from there.
      var view = model.receiver.qaView
      if view.first == nil {
        view.place(at: QAPane.lines(model, qa, width: laidOut.rect.inner.width).focusRow - 1)
      }
      move(&view, action, count: count, height: height)
      model.receiver.qaView = view
      return
    }
    move(&view, action, count: count, height: height)
    model.receiver.views[pane] = view
  }

  static func move(_ view: inout ScrollView, _ action: Action, count: Int, height: Int) {
    switch action {
    case .scrollUp: view.scroll(by: -1, count: count, height: height)
    case .scrollDown: view.scroll(by: 1, count: count, height: height)
    case .pageUp: view.scroll(by: -max(1, height - 1), count: count, height: height)
    case .pageDown: view.scroll(by: max(1, height - 1), count: count, height: height)
    case .top: view.toTop(count: count, height: height)
    default: view.toBottom(count: count, height: height)
    }
  }
}
