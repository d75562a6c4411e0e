import EngagementCore
import Fleet
import RegistrationCore
import SessionValues

extension Inspector {
  /// `F`: opens the Fleet view (computing the default fleet the first time), or closes it.
  static func fleetKey(_ model: inout InspectorModel) -> [InspectorEffect] {
    if model.screen == .fleet {
      model.screen = model.jobScreen
      return []
    }
    model.screen = .fleet
    if model.fleet == nil {
      model.flash = InspectorModel.Flash(
        text: "running \(FleetShow.defaultDevices) devices through the three strategies…",
        isError: false)
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

  /// `W`: the Why view in the body's place, or back to the body.
  static func fieldsKey(_ model: inout InspectorModel) -> [InspectorEffect] {
    model.receiver.fieldsShown.toggle()
    model.receiver.fieldsLoadedFor = nil
    if model.receiver.fieldsShown { model.receiver.qaShown = false }
    return fieldsWanted(&model)
  }

  /// The receiver's answer, kept while the view is shown and the device still chosen.
  static func showFields(
    _ stories: DeviceFieldStories?, of deviceID: String, _ model: inout InspectorModel
  ) {
    guard model.receiver.fieldsShown, model.selectedDevice?.deviceID == deviceID else { return }
    model.receiver.fields = stories
  }

  /// The Why view asks for the chosen device's field stories when it is shown and the device,
  /// or its newest request, is not the one they were asked for.
  static func fieldsWanted(_ model: inout InspectorModel) -> [InspectorEffect] {
    guard model.receiver.fieldsShown, let device = model.selectedDevice else { return [] }
    if let loaded = model.receiver.fieldsLoadedFor, loaded.deviceID == device.deviceID,
      loaded.lastSeen == device.lastSeen
    {
      return []
    }
    if model.receiver.fieldsLoadedFor?.deviceID != device.deviceID { model.receiver.fields = nil }
    model.receiver.fieldsLoadedFor = (device.deviceID, device.lastSeen)
    return [.loadFields(deviceID: device.deviceID)]
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
