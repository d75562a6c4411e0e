import EngagementCore
import RegistrationCore

/// The Fields pane's keys: `W` shows it in the body's place (and focuses it), the cursor keys
/// choose a field, Enter opens its story, Esc goes back a level.
extension Inspector {
  /// `W`: the Fields pane in the body's place, or back to the body.
  static func fieldsKey(_ model: inout InspectorModel) -> [InspectorEffect] {
    model.receiver.fieldsShown.toggle()
    model.receiver.fieldsLoadedFor = nil
    model.receiver.fieldOpened = false
    model.receiver.views[.body]?.reset()
    if model.receiver.fieldsShown {
      model.receiver.qaShown = false
      model.receiver.focus = .body
    }
    return fieldsWanted(&model)
  }

  /// Enter: the chosen field's story, or back to the list; with no field shown, a QA run's
  /// ask is done.
  static func openField(_ model: inout InspectorModel) -> [InspectorEffect] {
    guard model.receiver.fieldsShown else {
      if model.receiver.qa != nil { return qaKey(.qaProceed, &model) }
      model.flash = InspectorModel.Flash(
        text: "Enter opens a field's story: W shows the chosen device's fields", isError: false)
      return []
    }
    guard FieldsPane.chosen(model) != nil else {
      // Nothing to open: a QA ask still waits on Enter.
      if model.receiver.qa?.ask != nil { return qaKey(.qaProceed, &model) }
      model.flash = InspectorModel.Flash(
        text: model.receiver.fields != nil
          ? "this device has sent no field yet"
          : model.receiver.fieldsAnswered
            ? "no field stories in this session" : "the device's fields are on their way",
        isError: false)
      return []
    }
    // The story opened is of this field, by name, whatever the next answer lists first.
    model.receiver.fieldChosen = FieldsPane.chosen(model)?.id
    model.receiver.fieldOpened.toggle()
    model.receiver.focus = .body
    if model.receiver.fieldOpened {
      model.receiver.views[.body]?.reset()
    } else {
      keepChosenFieldInView(&model)
    }
    return []
  }

  /// Esc: a story back to the list, the list back to the body.
  static func fieldsBack(_ model: inout InspectorModel) -> [InspectorEffect] {
    if model.receiver.fieldOpened {
      model.receiver.fieldOpened = false
      keepChosenFieldInView(&model)
      return []
    }
    return model.receiver.fieldsShown ? fieldsKey(&model) : []
  }

  /// Up, Down, Page Up, Page Down, `g` and `G` over the fields; the view follows the cursor.
  static func chooseField(_ action: Action, _ model: inout InspectorModel) {
    guard let fields = model.receiver.fields?.fields, !fields.isEmpty else { return }
    let current = fields.firstIndex { $0.id == FieldsPane.chosen(model)?.id } ?? 0
    let next: Int =
      switch action {
      case .scrollUp: current - 1
      case .scrollDown: current + 1
      case .pageUp: current - 5
      case .pageDown: current + 5
      case .top: 0
      default: fields.count - 1
      }
    let index = min(max(0, next), fields.count - 1)
    model.receiver.fieldChosen = fields[index].id
    // Back at the first field, the explanation above it is in view again.
    guard index > 0 else {
      model.receiver.views[.body]?.reset()
      return
    }
    keepChosenFieldInView(&model)
  }

  /// Scrolls the list only as far as the chosen field's row needs to be seen.
  static func keepChosenFieldInView(_ model: inout InspectorModel) {
    guard let rect = model.receiverRects[.body]
    else { return }
    let height = rect.inner.height
    let (lines, row) = FieldsPane.lines(model, width: rect.inner.width)
    var view = model.receiver.view(.body)
    let first = view.firstLine(count: lines.count, height: height)
    if row < first {
      view.place(at: row)
    } else if row >= first + height {
      view.place(at: row - height + 1)
    }
    model.receiver.views[.body] = view
  }

  /// The receiver's answer, kept while the pane is shown and the device still chosen.
  static func showFields(
    _ stories: DeviceFieldStories?, of deviceID: String, _ model: inout InspectorModel
  ) {
    guard model.receiver.fieldsShown, model.selectedDevice?.deviceID == deviceID else { return }
    model.receiver.fields = stories
    model.receiver.fieldsAnswered = true
    // A field no longer in the story (its registrations left the server's window): the list
    // again, from the first, rather than another field's story under its name.
    if let chosen = model.receiver.fieldChosen,
      stories?.fields.contains(where: { $0.id == chosen }) != true
    {
      model.receiver.fieldChosen = nil
      model.receiver.fieldOpened = false
    }
  }

  /// The Fields pane asks for the chosen device's field stories when it is shown and the
  /// device or its newest request is not the one they were asked for, or when a value it
  /// shows waits for processing and the server has processed since (accepted or rejected
  /// later, with no request from the device; a busy receiver processes all the time, and a
  /// story with nothing waiting is not asked for again for that). Another device starts at
  /// its first field, with no story open.
  static func fieldsWanted(_ model: inout InspectorModel) -> [InspectorEffect] {
    guard model.receiver.fieldsShown, let device = model.selectedDevice else { return [] }
    let processed = model.server.map { $0.stats.processed + $0.stats.rejected } ?? 0
    let waits = model.receiver.fields?.fields.contains { $0.latest?.outcome == .waiting } ?? false
    if let loaded = model.receiver.fieldsLoadedFor, loaded.deviceID == device.deviceID,
      loaded.lastSeen == device.lastSeen, !waits || loaded.processed == processed
    {
      return []
    }
    if model.receiver.fieldsLoadedFor?.deviceID != device.deviceID {
      model.receiver.fields = nil
      model.receiver.fieldChosen = nil
      model.receiver.fieldOpened = false
    }
    model.receiver.fieldsLoadedFor = (device.deviceID, device.lastSeen, processed)
    model.receiver.fieldsAnswered = false
    return [.loadFields(deviceID: device.deviceID)]
  }
}
