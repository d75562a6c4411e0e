import RegistrationCore

extension DeviceWatch {
  /// Read-backs kept per device: each says the whole comparison, the newest matters most.
  public static let readBacksKept = 10

  /// The tenant's answer joins the device's timeline, changed in place: a read-back is not the
  /// device being seen, so its place in the order last seen stays. A device dropped meanwhile
  /// (the watch keeps `deviceLimit`) has nowhere to show it, and it is let go. `due`: the next
  /// lookup already waiting (a 2xx that came while the tenant was asked), nil when none.
  public mutating func recordReadBack(
    _ readBack: ReadBack, of deviceID: String, due: Instant? = nil
  ) {
    devices.modify(deviceID) { device in
      device.readBacks.append(readBack)
      let excess = device.readBacks.count - Self.readBacksKept
      if excess > 0 { device.readBacks.removeFirst(excess) }
      device.readBackDue = due
    }
  }

  /// When the tenant will be asked about the device (nil: no longer waiting), for its timeline.
  public mutating func markReadBackDue(_ due: Instant?, of deviceID: String) {
    devices.modify(deviceID) { $0.readBackDue = due }
  }
}
