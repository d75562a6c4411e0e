extension DeviceWatch {
  /// The devices kept, by id: each in a slot of one array, found through an index of ids to
  /// slots. A dictionary of devices moved a whole device (hundreds of bytes) each time one
  /// went in or out, and its deletions, one a registration under a fleet, moved the devices
  /// after it; here a device changed in place stays in its slot, and the index moves only ids
  /// and numbers. A value, as a dictionary is: a copy of the watch is a copy of its devices.
  public struct DeviceTable: Sendable {
    private var slotOf: [String: Int] = [:]
    private var slots: [Device?] = []
    /// Slots emptied by `remove`, taken again first.
    private var freeSlots: [Int] = []

    public var count: Int { slotOf.count }
    public var isEmpty: Bool { slotOf.isEmpty }

    public subscript(deviceID: String) -> Device? {
      slotOf[deviceID].flatMap { slots[$0] }
    }

    /// Slots made so far, empty ones included: at most one more than the most devices kept.
    var slotCount: Int { slots.count }

    /// Every device, in no particular order (as a dictionary's values).
    public var values: [Device] { slots.compactMap { $0 } }

    /// The device's `storedAt`, read in place (a copy of the device was a retain of each part).
    func storedAt(_ deviceID: String) -> Int? {
      slotOf[deviceID].flatMap { slots[$0]?.storedAt }
    }

    /// Takes the device out to be changed; its slot waits for `put`.
    mutating func take(_ deviceID: String) -> Device? {
      guard let slot = slotOf[deviceID] else { return nil }
      return slots[slot].take()
    }

    /// Puts `device` back in its slot, or in a new one.
    mutating func put(_ device: consuming Device) {
      if let slot = slotOf[device.deviceID] {
        slots[slot] = consume device
        return
      }
      if let slot = freeSlots.popLast() {
        slotOf[device.deviceID] = slot
        slots[slot] = consume device
      } else {
        slotOf[device.deviceID] = slots.count
        slots.append(consume device)
      }
    }

    /// Changes the device in place; nil when there is none.
    mutating func modify<Result>(_ deviceID: String, _ change: (inout Device) -> Result)
      -> Result?
    {
      guard let slot = slotOf[deviceID], slots[slot] != nil else { return nil }
      return change(&slots[slot]!)
    }

    /// Removes the device and frees its slot.
    mutating func remove(_ deviceID: String) -> Device? {
      guard let slot = slotOf.removeValue(forKey: deviceID) else { return nil }
      freeSlots.append(slot)
      return slots[slot].take()
    }

    /// Room for `devices` at once: an index kept well under full keeps its probes, and the
    /// deletions that shift the ids after them, short.
    mutating func reserve(_ devices: Int) {
      slotOf.reserveCapacity(2 * devices)
      slots.reserveCapacity(devices + 1)
    }
  }
}
