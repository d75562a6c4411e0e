/// The panes, numbered as the keys that focus them.
public enum PaneID: Int, CaseIterable, Sendable, Hashable {
  case record = 1
  case pending
  case throttle
  case backoff
  case events
  case server
  case payload

  public var title: String {
    switch self {
    case .record: "Contact record"
    case .pending: "Pending changes"
    case .throttle: "Throttle"
    case .backoff: "Backoff"
    case .events: "Events"
    case .server: "Server"
    case .payload: "Payload"
    }
  }

  /// The key that focuses it: its number.
  public var key: Key { .character(Character(String(rawValue))) }
}

/// Everything a key can do.
public enum Action: Hashable, Sendable {
  case quit
  case help
  case commandLine
  case filter
  case back
  case focusNext
  case focusPrevious
  case focus(PaneID)
  /// The receiver screen's panes have numbers of their own.
  case focusReceiver(ReceiverScreen.Pane)
  case scrollUp
  case scrollDown
  case pageUp
  case pageDown
  case top
  case bottom
  case toggleAppState
  case pauseResume
  case faster
  case slower
  case jumpToDeadline
  case fail503
  case fail429
  case hang
  case toggleDown
  case restart
  case editAttributes
  case editTags
  case editContactKey
  case cycleTheme
  case fleet
  /// QA: show or hide the plan's checklist; go on after an ask; choose a step to open.
  case qaChecklist
  case fieldsToggle
  /// The Fields pane: open the chosen field's story, or close it.
  case openField
  case qaProceed
  case qaPreviousStep
  case qaNextStep
  /// A demo: its checks in words, or as the scenario's expressions.
  case toggleExpressions
  /// The receiver with --tenant: the tenant's demographics read again now.
  case refreshDemographics
  /// The receiver: the chosen device's debug bundle written (#54).
  case writeBundle
  // Editors
  case confirm
  case cancel
  case add
  case remove
  case nextField
}
