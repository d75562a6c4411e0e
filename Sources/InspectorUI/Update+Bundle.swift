import RegistrationCore

/// `B` in the receiver (#54): the chosen device's debug bundle, written by the runtime; what it
/// wrote comes back as a notice at the bottom.
extension Inspector {
  static func bundleKey(_ model: inout InspectorModel) -> [InspectorEffect] {
    guard let device = model.selectedDevice else {
      model.flash = InspectorModel.Flash(
        text: "B: no device has registered yet: a bundle is of the chosen device", isError: false)
      return []
    }
    model.flash = InspectorModel.Flash(
      text: "writing the debug bundle of \(TerminalText.escaped(device.deviceID))…",
      isError: false)
    return [.writeBundle(deviceID: device.deviceID)]
  }
}
