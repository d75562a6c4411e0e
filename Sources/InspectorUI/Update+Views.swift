import EngagementCore
import Fleet
import RegistrationCore
import SessionValues

extension Inspector {
  /// `F`: opens the Fleet view, or closes it.
  static func fleetKey(_ model: inout InspectorModel) -> [InspectorEffect] {
    guard model.screen == .fleet else { return openFleet(&model) }
    model.screen = model.jobScreen
    return []
  }

  /// The Fleet view, its default fleet computed the first time.
  static func openFleet(_ model: inout InspectorModel) -> [InspectorEffect] {
    model.screen = .fleet
    if model.fleet == nil {
      // The size is the fleet's own (`--fleet-devices`), said when it is ready: the model
      // does not hold the plans.
      model.flash = InspectorModel.Flash(
        text: "running the fleet through the three strategies…", isError: false)
      return [.runFleet]
    }
    return []
  }

  /// Makes the selected device's last body readable once, when it is new to the model.
  static func refreshReceiverBody(_ model: inout InspectorModel) {
    guard let device = model.selectedDevice,
      let entry = device.registrations.last(where: { !$0.body.isEmpty })
    else {
      model.receiver.body = nil
      return
    }
    if model.receiver.body?.deviceID == device.deviceID, model.receiver.body?.at == entry.at {
      return
    }
    model.receiver.body = (device.deviceID, entry.at, ReadableJSON.lines(Array(entry.body.utf8)))
  }

  /// The QA keys: `Q` shows or hides the checklist, Enter goes on after an ask, `[` and `]`
  /// open a step's verdict and evidence.
  static func qaKey(_ action: Action, _ model: inout InspectorModel) -> [InspectorEffect] {
    // The table refuses these keys, with the reason, while no plan runs.
    guard let qa = model.receiver.qa else { return [] }
    switch action {
    case .qaChecklist: model.receiver.qaShown.toggle()
    case .qaProceed:
      guard qa.ask != nil else { return [] }
      return [.qaProceed]
    case .qaPreviousStep, .qaNextStep:
      let start = model.receiver.qaOpened ?? qa.current ?? 0
      let moved = start + (action == .qaNextStep ? 1 : -1)
      model.receiver.qaOpened = min(max(0, moved), qa.items.count - 1)
      model.receiver.qaShown = true
      // The step opened is shown: the checklist follows it again.
      model.receiver.qaView.reset()
    default: break
    }
    return []
  }
}

extension Inspector {
  /// In the help: close it, or scroll its keys when they do not all fit.
  static func helpKey(_ key: Key, _ model: inout InspectorModel) {
    let page = max(1, model.height - 5)
    let last = max(0, helpRows(model).rows.count - (model.height - 4))
    switch KeyTable.action(for: key, in: .help) {
    case .back: model.mode = .normal
    case .scrollUp: model.helpScroll -= 1
    case .scrollDown: model.helpScroll += 1
    case .pageUp: model.helpScroll -= page
    case .pageDown: model.helpScroll += page
    default: return
    }
    model.helpScroll = min(max(0, model.helpScroll), last)
  }
}
